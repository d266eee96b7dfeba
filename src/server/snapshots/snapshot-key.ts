import { createHash, hkdfSync } from 'node:crypto';
import { Barrier } from '../storage/barrier.js';
import { combine } from '../replication/shamir.js';
import { parseShare } from '../replication/root-key.js';

/**
 * The key a snapshot is sealed with: derived from the root key of the data it holds (the
 * cluster's own, or its DR set's), so any cluster holding that root key, or anyone with its key
 * shares, can restore it, and a snapshot file in a bucket reveals nothing. `id` names the key in
 * the snapshot's header without revealing it.
 */
export interface SnapshotKey {
  id: string;
  barrier: Barrier;
}

const INFO = 'lockstep snapshot seal v1';

export function snapshotKeyOf(rootKeyHex: string): SnapshotKey {
  const derived = Buffer.from(hkdfSync('sha256', Buffer.from(rootKeyHex, 'hex'), Buffer.alloc(0), INFO, Barrier.KEY_BYTES));
  return { id: createHash('sha256').update(derived).digest('hex').slice(0, 16), barrier: new Barrier(derived) };
}

/**
 * The snapshot key of the root key that `shares` (hex or base64, at least the threshold of one
 * split) rebuild; undefined when a share does not parse. Wrong shares give a key no snapshot
 * matches, which is how they are told apart.
 */
export async function snapshotKeyFromShares(shares: readonly string[]): Promise<SnapshotKey | undefined> {
  const parsed = shares.map(parseShare);
  if (parsed.length === 0 || parsed.some((s) => s === undefined)) return undefined;
  try {
    return snapshotKeyOf(Buffer.from(await combine(parsed as Buffer[])).toString('hex'));
  } catch {
    return undefined;
  }
}
