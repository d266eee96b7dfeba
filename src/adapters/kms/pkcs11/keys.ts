/**
 * Finding a key and reading what lockstep needs from it.
 *
 * key_id: the spec does not say how an id is written. lockstep reads `0x`-prefixed hex as
 * bytes; other text made only of an even number of hex digits is tried as bytes first and then
 * as its UTF-8 text; anything else is UTF-8 text. CKA_LABEL is compared as UTF-8 text.
 */
import { createPublicKey, type KeyObject } from 'node:crypto';
import type { PKCS11, Template } from 'pkcs11js';
import { KeyBackendError } from '../errors.js';
import type { CurveName } from '../curves.js';
import {
  CKA_CLASS, CKA_EC_PARAMS, CKA_EC_POINT, CKA_ID, CKA_KEY_TYPE, CKA_LABEL, CKA_MODULUS,
  CKA_PUBLIC_EXPONENT, CKA_SIGN, CKK_EC, CKK_RSA, CKO_PRIVATE_KEY, CKO_PUBLIC_KEY,
} from './constants.js';
import { pkcs11Error } from './errors.js';
import { curveFromParams, ecPointToJwk } from './ec.js';
import type { KeyFamily } from './mechanisms.js';

type Handle = Buffer;

export interface KeySelector {
  label?: string;
  id?: string;
}

export function describeKey(sel: KeySelector): string {
  const parts = [];
  if (sel.label !== undefined) parts.push(`key_label "${sel.label}"`);
  if (sel.id !== undefined) parts.push(`key_id "${sel.id}"`);
  return parts.join(' and ');
}

/** The byte strings a key_id may stand for, in the order they are tried. */
export function keyIdCandidates(id: string): Buffer[] {
  if (/^0x([0-9a-f]{2})+$/i.test(id)) return [Buffer.from(id.slice(2), 'hex')];
  if (/^([0-9a-f]{2})+$/i.test(id)) return [Buffer.from(id, 'hex'), Buffer.from(id, 'utf8')];
  return [Buffer.from(id, 'utf8')];
}

function findObjects(lib: PKCS11, session: Handle, template: Template): Handle[] {
  try {
    lib.C_FindObjectsInit(session, template);
    try {
      return lib.C_FindObjects(session, 16);
    } finally {
      lib.C_FindObjectsFinal(session);
    }
  } catch (err) {
    throw pkcs11Error(err, 'C_FindObjects');
  }
}

/** Private keys matching the selector (all given attributes must match). */
export function findPrivateKeys(lib: PKCS11, session: Handle, sel: KeySelector): Handle[] {
  const base: Template = [{ type: CKA_CLASS, value: CKO_PRIVATE_KEY }];
  if (sel.label !== undefined) base.push({ type: CKA_LABEL, value: sel.label });
  if (sel.id === undefined) return findObjects(lib, session, base);
  for (const id of keyIdCandidates(sel.id)) {
    const found = findObjects(lib, session, [...base, { type: CKA_ID, value: id }]);
    if (found.length > 0) return found;
  }
  return [];
}

export interface PrivateKeyInfo {
  handle: Handle;
  family: KeyFamily | 'other';
  canSign: boolean;
  id: Buffer;
  label: string;
}

export function readPrivateKey(lib: PKCS11, session: Handle, handle: Handle): PrivateKeyInfo {
  try {
    const [type, sign, id, label] = lib.C_GetAttributeValue(session, handle, [
      { type: CKA_KEY_TYPE },
      { type: CKA_SIGN },
      { type: CKA_ID },
      { type: CKA_LABEL },
    ]);
    const keyType = readUlong(type!.value);
    return {
      handle,
      family: keyType === CKK_EC ? 'EC' : keyType === CKK_RSA ? 'RSA' : 'other',
      canSign: sign!.value.length > 0 && sign!.value[0] === 1,
      id: Buffer.from(id!.value),
      label: label!.value.toString('utf8'),
    };
  } catch (err) {
    throw pkcs11Error(err, 'reading the private key attributes');
  }
}

function readUlong(b: Buffer): number {
  return b.length >= 8 ? Number(b.readBigUInt64LE(0)) : b.readUInt32LE(0);
}

/**
 * The key's public key as a node KeyObject: from the matching CKO_PUBLIC_KEY object (same
 * CKA_ID, or same label when the id is empty); for RSA the private object's modulus and
 * exponent serve when there is no public object.
 */
export function publicKeyOf(lib: PKCS11, session: Handle, key: PrivateKeyInfo): { key: KeyObject; curve?: CurveName } {
  const match: Template = [{ type: CKA_CLASS, value: CKO_PUBLIC_KEY }];
  match.push(key.id.length > 0 ? { type: CKA_ID, value: key.id } : { type: CKA_LABEL, value: key.label });
  const publics = findObjects(lib, session, match);
  try {
    if (key.family === 'EC') {
      const pub = publics[0];
      if (!pub) throw new KeyBackendError('not_found', 'pkcs11', 'no public key object matches the EC private key, so the signature cannot be verified');
      const [params, point] = lib.C_GetAttributeValue(session, pub, [{ type: CKA_EC_PARAMS }, { type: CKA_EC_POINT }]);
      const curve = curveFromParams(params!.value);
      return { key: createPublicKey({ key: ecPointToJwk(curve, point!.value), format: 'jwk' }), curve };
    }
    const source = publics[0] ?? key.handle;
    const [n, e] = lib.C_GetAttributeValue(session, source, [{ type: CKA_MODULUS }, { type: CKA_PUBLIC_EXPONENT }]);
    const jwk = { kty: 'RSA', n: n!.value.toString('base64url'), e: e!.value.toString('base64url') };
    return { key: createPublicKey({ key: jwk, format: 'jwk' }) };
  } catch (err) {
    throw pkcs11Error(err, 'reading the public key');
  }
}
