import { readStoredIdentity } from '../cluster-identity.js';
import { drStateStore } from '../replication/state-file.js';

/**
 * The root keys a cluster's data directory already holds (its own, and its DR set's once it
 * joined one), read without creating anything: what opens a snapshot it took itself.
 */
export async function heldRootKeys(dir: string | undefined): Promise<string[]> {
  if (dir === undefined) return [];
  const keys = new Set<string>();
  const identity = await readStoredIdentity(dir);
  if (identity?.root_key) keys.add(identity.root_key);
  const dr = await drStateStore(dir).load();
  if (dr?.keys?.root_key) keys.add(dr.keys.root_key);
  return [...keys];
}
