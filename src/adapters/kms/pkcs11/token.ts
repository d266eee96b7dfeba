/**
 * Slots, sessions and login.
 *
 * Each operation opens its own session and closes it afterwards. PKCS#11 login state belongs
 * to the token, not the session: while any session of this process is logged in, C_Login
 * answers CKR_USER_ALREADY_LOGGED_IN whatever PIN is given. So, to still refuse a wrong PIN
 * then, the process remembers (as an HMAC under a random process key, never the PIN) which PIN
 * logged each token in, and treats a different PIN as CKR_PIN_INCORRECT.
 */
import { createHmac, randomBytes } from 'node:crypto';
import type { PKCS11 } from 'pkcs11js';
import { KeyBackendError } from '../errors.js';
import { CKF_RW_SESSION, CKF_SERIAL_SESSION, CKU_USER } from './constants.js';
import { isCkr, pkcs11Error } from './errors.js';
import type { Pkcs11Module } from './module.js';

type Handle = Buffer;

export interface SlotSelector {
  /** Decimal slot id. */
  slot?: string;
  /** Token label (compared without its blank padding). */
  tokenLabel?: string;
}

export interface ResolvedSlot {
  handle: Handle;
  id: string;
  tokenLabel: string;
}

/** A slot handle (CK_ULONG, little-endian) as the decimal the spec's `slot` field uses. */
function slotDecimal(handle: Handle): string {
  return handle.length >= 8 ? handle.readBigUInt64LE(0).toString() : handle.readUInt32LE(0).toString();
}

export function describeSlot(sel: SlotSelector): string {
  if (sel.slot !== undefined && sel.tokenLabel !== undefined) return `slot ${sel.slot} (token "${sel.tokenLabel}")`;
  return sel.slot !== undefined ? `slot ${sel.slot}` : `token "${sel.tokenLabel}"`;
}

/** The slot given by number or by token label; both given must agree. */
export function resolveSlot(mod: Pkcs11Module, sel: SlotSelector): ResolvedSlot {
  let handles: Handle[];
  try {
    handles = mod.lib.C_GetSlotList(true);
  } catch (err) {
    throw pkcs11Error(err, 'C_GetSlotList', 'unavailable');
  }
  const slots = handles.map((handle) => ({ handle, id: slotDecimal(handle), tokenLabel: tokenLabel(mod.lib, handle) }));
  const match = slots.find(
    (s) =>
      (sel.slot === undefined || s.id === sel.slot) &&
      (sel.tokenLabel === undefined || s.tokenLabel === sel.tokenLabel),
  );
  if (!match) {
    throw new KeyBackendError('not_found', 'pkcs11', `${describeSlot(sel)}: no such slot with a token in ${mod.path}`);
  }
  return match;
}

function tokenLabel(lib: PKCS11, slot: Handle): string {
  try {
    return lib.C_GetTokenInfo(slot).label.trim();
  } catch {
    return '';
  }
}

interface TokenState {
  /** Sessions this process has open on the token through withSession. */
  sessions: number;
  /** HMAC of the PIN that logged the token in, while it is logged in. */
  pinTag?: string;
}

const tokens = new Map<string, TokenState>();
const processKey = randomBytes(32);

function pinTag(pin: string): string {
  return createHmac('sha256', processKey).update(pin).digest('hex');
}

export interface SessionOptions {
  readWrite: boolean;
  pin: string;
}

/** Opens a session on the slot, logs the user in, runs fn, and closes the session. */
export async function withSession<T>(
  mod: Pkcs11Module,
  slot: ResolvedSlot,
  opts: SessionOptions,
  fn: (session: Handle) => Promise<T>,
): Promise<T> {
  const key = `${mod.path}#${slot.id}`;
  const state = tokens.get(key) ?? { sessions: 0 };
  tokens.set(key, state);
  let session: Handle;
  try {
    session = mod.lib.C_OpenSession(slot.handle, CKF_SERIAL_SESSION | (opts.readWrite ? CKF_RW_SESSION : 0));
  } catch (err) {
    throw pkcs11Error(err, `C_OpenSession on slot ${slot.id}`);
  }
  state.sessions += 1;
  try {
    login(mod.lib, session, opts.pin, state, slot);
    return await fn(session);
  } finally {
    state.sessions -= 1;
    // The last session closing logs the token out (PKCS#11 v2.40 §5.6).
    if (state.sessions === 0) state.pinTag = undefined;
    try {
      mod.lib.C_CloseSession(session);
    } catch {
      // the session is gone either way
    }
  }
}

function login(lib: PKCS11, session: Handle, pin: string, state: TokenState, slot: ResolvedSlot): void {
  const tag = pinTag(pin);
  const where = `login to token "${slot.tokenLabel}" (slot ${slot.id})`;
  try {
    lib.C_Login(session, CKU_USER, pin);
    state.pinTag = tag;
  } catch (err) {
    if (!isCkr(err, 'CKR_USER_ALREADY_LOGGED_IN')) throw pkcs11Error(err, where);
    if (state.pinTag !== undefined && state.pinTag !== tag) {
      throw new KeyBackendError('auth', 'pkcs11', `${where}: CKR_PIN_INCORRECT`);
    }
  }
}
