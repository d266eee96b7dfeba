import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { writeFileAtomic } from './storage/atomic-file.js';
import { newUuid, randomBase62 } from './util/random.js';

/**
 * What makes a cluster itself, kept beside its store (not in it: the store's content is what
 * DR replication copies between clusters, while each keeps its own id and root token).
 */
export interface ClusterIdentity {
  cluster_id: string;
  root_token: string;
  created_at_ms: number;
}

const IDENTITY_FILE = 'cluster.json';

export function newRootToken(): string {
  return `hvs.${randomBase62(24)}`;
}

/** Loads the identity under `dir` (creating it the first time); a given root token replaces the stored one. */
export async function loadIdentity(dir: string | undefined, rootToken: string | undefined): Promise<ClusterIdentity> {
  if (dir === undefined) {
    return { cluster_id: newUuid(), root_token: rootToken ?? newRootToken(), created_at_ms: Date.now() };
  }
  const file = join(dir, IDENTITY_FILE);
  let identity: ClusterIdentity | undefined;
  try {
    identity = JSON.parse(await readFile(file, 'utf8')) as ClusterIdentity;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
  }
  if (identity && (rootToken === undefined || rootToken === identity.root_token)) return identity;
  const updated: ClusterIdentity = identity
    ? { ...identity, root_token: rootToken! }
    : { cluster_id: newUuid(), root_token: rootToken ?? newRootToken(), created_at_ms: Date.now() };
  await writeFileAtomic(file, JSON.stringify(updated, null, 2) + '\n');
  return updated;
}
