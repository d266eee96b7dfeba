import { createHash } from 'node:crypto';
import { canonicalJson } from './json.js';

/** Marks an address that was read and found missing. */
export const ABSENT = 'absent';

/** Fingerprint of what a read returned (normalised, secret-free): sha256 of its canonical JSON. */
export function fingerprint(value: unknown): string {
  return createHash('sha256').update(canonicalJson(value)).digest('hex').slice(0, 32);
}
