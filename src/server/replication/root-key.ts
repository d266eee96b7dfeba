import { randomBytes, timingSafeEqual } from 'node:crypto';
import { combine, split, splitProblem } from './shamir.js';

/** A cluster's root key and how it was split at initialisation (hex texts). */
export interface KeyMaterial {
  root_key: string;
  key_shares: string[];
  key_threshold: number;
}

export interface KeySplit {
  shares: number;
  threshold: number;
}

/** Like a dev server: one share, threshold one. */
const DEFAULT_KEY_SPLIT: KeySplit = { shares: 1, threshold: 1 };

const ROOT_KEY_BYTES = 32;

/** Shares default to 1; the threshold to 1 for one share, else a majority of them. */
export function defaultedKeySplit(shares: number | undefined, threshold: number | undefined): KeySplit {
  const n = shares ?? DEFAULT_KEY_SPLIT.shares;
  return { shares: n, threshold: threshold ?? (n === 1 ? 1 : Math.floor(n / 2) + 1) };
}

export function keySplitProblem(s: KeySplit): string | undefined {
  return splitProblem(s.shares, s.threshold);
}

/** A new random root key split into shares (the initialisation of a cluster); one share is the key itself. */
export async function newKeyMaterial(s: KeySplit = DEFAULT_KEY_SPLIT): Promise<KeyMaterial> {
  const rootKey = randomBytes(ROOT_KEY_BYTES);
  const shares = await split(rootKey, s.shares, s.threshold);
  return {
    root_key: rootKey.toString('hex'),
    key_shares: shares.map((share) => Buffer.from(share).toString('hex')),
    key_threshold: s.threshold,
  };
}

const HEX = /^(?:[0-9a-fA-F]{2})+$/;
const BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=|[A-Za-z0-9+/]{2}|[A-Za-z0-9+/]{3})?$/;

/** A share as given in a request: hex first, then base64 (as the service reads them); undefined otherwise. */
export function parseShare(text: string): Buffer | undefined {
  const t = text.trim();
  if (t === '') return undefined;
  if (HEX.test(t)) return Buffer.from(t, 'hex');
  if (BASE64.test(t)) {
    const bytes = Buffer.from(t, 'base64');
    return bytes.length > 0 ? bytes : undefined;
  }
  return undefined;
}

/** Do these shares (threshold reached) rebuild this root key? Never throws on bad shares. */
export async function sharesOpen(shares: readonly Buffer[], rootKeyHex: string, threshold: number): Promise<boolean> {
  const rootKey = Buffer.from(rootKeyHex, 'hex');
  let candidate: Uint8Array;
  try {
    candidate = await combine(shares.slice(0, threshold));
  } catch {
    return false;
  }
  // A single share written by earlier versions carries an x byte after the key (a constant
  // polynomial: its y bytes are the key); data directories made then still open.
  if (threshold === 1 && candidate.length === rootKey.length + 1) candidate = candidate.subarray(0, rootKey.length);
  return candidate.length === rootKey.length && timingSafeEqual(candidate, rootKey);
}
