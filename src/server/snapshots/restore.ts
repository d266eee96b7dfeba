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
import type { SnapshotKey } from './snapshot-key.js';

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

/** Reads every snapshot to restore, by cluster name, and verifies its envelope. */
export async function loadRestores(option: RestoreOption | undefined, clusters: readonly string[]): Promise<Map<string, { file: string; snapshot: SnapshotFile }>> {
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

/** Opens a snapshot read by loadRestores with the keys at hand for its cluster; errors name the file. */
export function openRestore(restore: { file: string; snapshot: SnapshotFile }, keys: readonly SnapshotKey[]): DecodedSnapshot {
  try {
    return openSnapshot(restore.snapshot, keys);
  } catch (err) {
    if (err instanceof SnapshotFormatError || err instanceof SnapshotKeyError) throw new Error(`cannot restore snapshot ${restore.file}: ${err.message}`);
    throw err;
  }
}

export async function readSnapshotFile(file: string): Promise<SnapshotFile> {
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
