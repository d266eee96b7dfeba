import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { writeFileAtomic } from './storage/atomic-file.js';
import { Barrier } from './storage/barrier.js';
import { newKeyMaterial, type KeyMaterial, type KeySplit } from './replication/root-key.js';
import { newUuid, randomBase62 } from './util/random.js';

/**
 * What makes a cluster itself, kept beside its store (not in it: the store's content is what
 * DR replication copies between clusters, while each keeps its own id and root token).
 */
export interface ClusterIdentity extends KeyMaterial {
  cluster_id: string;
  root_token: string;
  created_at_ms: number;
  /** Hex key the store is sealed with on disk (storage/barrier.ts); never leaves this file. */
  storage_key: string;
}

const IDENTITY_FILE = 'cluster.json';

/** The identity stored under `dir`, if any; creates nothing. */
export async function readStoredIdentity(dir: string): Promise<ClusterIdentity | undefined> {
  try {
    return JSON.parse(await readFile(join(dir, IDENTITY_FILE), 'utf8')) as ClusterIdentity;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
    return undefined;
  }
}

function newRootToken(): string {
  return `hvs.${randomBase62(24)}`;
}

/**
 * Loads the identity under `dir` (creating it the first time: `created`); a given root token
 * replaces the stored one. The root key is made and split into shares (`keySplit`) at creation,
 * with the storage key the store is sealed with on disk.
 */
export async function loadIdentity(
  dir: string | undefined,
  rootToken: string | undefined,
  keySplit?: KeySplit,
  nowMs = Date.now(),
): Promise<ClusterIdentity & { created: boolean }> {
  const fresh = async (): Promise<ClusterIdentity> => ({
    cluster_id: newUuid(),
    root_token: rootToken ?? newRootToken(),
    created_at_ms: nowMs,
    storage_key: Barrier.newKey().toString('hex'),
    ...(await newKeyMaterial(keySplit)),
  });
  if (dir === undefined) return { ...(await fresh()), created: true };
  const file = join(dir, IDENTITY_FILE);
  const identity = await readStoredIdentity(dir);
  const hasKey = identity?.root_key !== undefined;
  const hasStorageKey = typeof identity?.storage_key === 'string';
  if (identity && hasKey && hasStorageKey && (rootToken === undefined || rootToken === identity.root_token)) return { ...identity, created: false };
  // An identity from before root keys or storage keys gets them on its next start.
  const updated: ClusterIdentity = identity
    ? {
        ...identity,
        root_token: rootToken ?? identity.root_token,
        ...(hasKey ? {} : await newKeyMaterial(keySplit)),
        ...(hasStorageKey ? {} : { storage_key: Barrier.newKey().toString('hex') }),
      }
    : await fresh();
  await writeFileAtomic(file, JSON.stringify(updated, null, 2) + '\n');
  return { ...updated, created: identity === undefined };
}
