import { createHash } from 'node:crypto';
import { canonicalJson, type JsonValue } from './json.js';

/** Marks an address that was read and found missing. */
export const ABSENT = 'absent';

/** Fingerprints of everything a plan read (LiveState.observed): what a saved plan stores. */
export function fingerprintAll(observed: Readonly<Record<string, JsonValue | null>>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [address, value] of Object.entries(observed)) out[address] = value === null ? ABSENT : fingerprint(value);
  return out;
}

/** Fingerprint of what a read returned (normalised, secret-free): sha256 of its canonical JSON. */
export function fingerprint(value: unknown): string {
  return createHash('sha256').update(canonicalJson(value)).digest('hex').slice(0, 32);
}
