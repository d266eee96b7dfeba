import { createHash } from 'node:crypto';
import type { KvStore } from '../storage/kv-store.js';
import { compareBytes } from '../util/lists.js';

/**
 * A digest of the whole store (what the service's merkle root stands for): equal on a primary
 * and a secondary exactly when they hold the same data.
 */
export function merkleRoot(store: KvStore): string {
  const hash = createHash('sha256');
  const entries = store.entries().sort(([a], [b]) => compareBytes(a, b));
  for (const [key, value] of entries) hash.update(key).update('\0').update(JSON.stringify(value)).update('\n');
  return hash.digest('hex');
}
