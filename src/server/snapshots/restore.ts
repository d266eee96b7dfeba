/**
 * Starting a cluster from a snapshot (`serve --restore [NAME=]FILE`, `startServer({ restore })`).
 *
 * - A file is read and verified (magic, checksum, header, then its entries opened with a key at
 *   hand: the root key of the cluster's data directory or DR set, or key shares given with
 *   `--restore-keys`) before any cluster starts: a missing, corrupt or unopenable file is an
 *   error and nothing starts.
 * - The cluster's store is replaced by exactly the snapshot's entries (with --data, the data
 *   directory's previous state is replaced, durably, on every start given --restore).
 * - The cluster keeps its own identity (cluster id, root token: from --data, --token or new);
 *   the snapshot's cluster name and id are informational. Tokens created in the snapshotted
 *   cluster live in its store and so work in the restored one.
 * - The write index becomes the snapshot's, or the store's next one if that is higher (an
 *   index never goes backwards in a data directory).
 */
import { readFile } from 'node:fs/promises';
import type { KvStore } from '../storage/kv-store.js';
import { openSnapshot, readSnapshotEnvelope, SnapshotFormatError, SnapshotKeyError, type DecodedSnapshot, type SnapshotFile } from './format.js';
import { heldRootKeys } from './held-keys.js';
import { snapshotKeyFromShares, snapshotKeyOf, type SnapshotKey } from './snapshot-key.js';

/** A file for the first cluster, or files by cluster name. */
export type RestoreOption = string | Readonly<Record<string, string>>;

const NAMED_SPEC = /^([A-Za-z0-9][A-Za-z0-9_.-]*)=(.+)$/;

/**
 * `--restore` values: `NAME=FILE` when NAME is one of the clusters, otherwise FILE for the
 * first cluster (write `./east=x.snap` for a file whose name looks like `cluster=...`).
 */
export function parseRestoreSpecs(specs: readonly string[], clusters: readonly string[]): Record<string, string> {
  const targets: Record<string, string> = {};
  for (const spec of specs) {
    const m = NAMED_SPEC.exec(spec);
    const [cluster, file] = m && clusters.includes(m[1]!) ? [m[1]!, m[2]!] : [clusters[0]!, spec];
    if (targets[cluster] !== undefined) throw new Error(`--restore gives cluster "${cluster}" two snapshots`);
    targets[cluster] = file;
  }
  return targets;
}

/** Keys beyond a cluster's own: given key shares, and where each cluster keeps its data. */
export interface RestoreKeys {
  /** Key shares (hex or base64), one list per root key (`--restore-keys`). */
  shares: readonly string[][];
  /** A cluster's data directory, whose root keys open the snapshots it took; undefined in memory. */
  dirOf: (cluster: string) => string | undefined;
}

const NO_KEYS: RestoreKeys = { shares: [], dirOf: () => undefined };

/**
 * Reads every snapshot to restore, by cluster name: first every file's envelope, then each
 * file's entries, opened with the keys at hand for its cluster (the given key shares, and the
 * root keys its data directory already holds).
 */
export async function loadRestores(
  option: RestoreOption | undefined,
  clusters: readonly string[],
  keys: RestoreKeys = NO_KEYS,
): Promise<Map<string, DecodedSnapshot>> {
  const files = await readRestoreFiles(option, clusters);
  const given: SnapshotKey[] = [];
  for (const [i, shares] of keys.shares.entries()) {
    const key = await snapshotKeyFromShares(shares);
    if (!key) throw new Error(`restore key set ${i + 1} holds a share that is not hex or base64, or shares that do not combine`);
    given.push(key);
  }
  const opened = new Map<string, DecodedSnapshot>();
  for (const [cluster, { file, snapshot }] of files) {
    const held = await heldRootKeys(keys.dirOf(cluster));
    opened.set(cluster, openRestore(file, snapshot, [...given, ...held.map(snapshotKeyOf)]));
  }
  return opened;
}

async function readRestoreFiles(option: RestoreOption | undefined, clusters: readonly string[]): Promise<Map<string, { file: string; snapshot: SnapshotFile }>> {
  const loaded = new Map<string, { file: string; snapshot: SnapshotFile }>();
  if (option === undefined) return loaded;
  const targets = typeof option === 'string' ? { [clusters[0]!]: option } : option;
  for (const [cluster, file] of Object.entries(targets)) {
    if (!clusters.includes(cluster)) {
      throw new Error(`cannot restore into cluster "${cluster}": no such cluster (clusters: ${clusters.join(', ')})`);
    }
    loaded.set(cluster, { file, snapshot: await readSnapshotFile(file) });
  }
  return loaded;
}

/** Opens a snapshot's entries with the keys at hand; errors name the file. */
function openRestore(file: string, snapshot: SnapshotFile, keys: readonly SnapshotKey[]): DecodedSnapshot {
  try {
    return openSnapshot(snapshot, keys);
  } catch (err) {
    if (err instanceof SnapshotFormatError || err instanceof SnapshotKeyError) throw new Error(`cannot restore snapshot ${file}: ${err.message}`);
    throw err;
  }
}

async function readSnapshotFile(file: string): Promise<SnapshotFile> {
  let data: Buffer;
  try {
    data = await readFile(file);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    throw new Error(`cannot read snapshot ${file}: ${code === 'ENOENT' ? 'no such file' : (code ?? 'read failed')}`);
  }
  try {
    return readSnapshotEnvelope(data);
  } catch (err) {
    if (err instanceof SnapshotFormatError) throw new Error(`cannot restore snapshot ${file}: ${err.message}`);
    throw err;
  }
}

/** Replaces the store's whole content by the snapshot's, durably. */
export function restoreInto(store: KvStore, snapshot: DecodedSnapshot): Promise<void> {
  return store.replaceAll(snapshot.entries, Math.max(snapshot.header.index, store.index + 1));
}
