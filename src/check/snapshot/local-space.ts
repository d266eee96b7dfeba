/**
 * Space findings for `local` destinations: snapshots of this file_prefix against
 * local_max_space (a snapshot attempt fails once the allowance is exhausted), and the free
 * space of the filesystem against what the allowance still permits.
 */
import { rmdir, stat } from 'node:fs/promises';
import { dirname } from 'node:path';
import {
  snapshotListPrefix,
  snapshotObjects,
  usedSpace,
  type LocalStore,
  type SnapshotStorageConfig,
} from '../../adapters/storage/index.js';
import { formatBytes } from '../../values/index.js';

type Report = (ok: boolean, message: string) => void;

export async function checkLocalSpace(store: LocalStore, config: SnapshotStorageConfig, filePrefix: string, report: Report): Promise<void> {
  const max = Number(config.local_max_space);
  if (config.local_max_space === undefined || config.local_max_space === '' || !Number.isFinite(max) || max <= 0) {
    report(false, 'local_max_space (bytes) is required for local snapshots and must be a positive number');
    return;
  }
  let used: number;
  let free: number;
  try {
    used = usedSpace(snapshotObjects(await store.list(snapshotListPrefix(config.path_prefix, filePrefix)), filePrefix, config.path_prefix));
    free = await store.freeSpace();
  } catch (err) {
    report(false, `cannot measure space: ${err instanceof Error ? err.message : String(err)}`);
    return;
  }
  if (used >= max) {
    report(false, `snapshots use ${formatBytes(used)}, the whole local_max_space of ${formatBytes(max)}: the next snapshot will fail`);
  } else {
    report(true, `snapshots use ${formatBytes(used)} of local_max_space ${formatBytes(max)}`);
  }
  const allowance = Math.max(0, max - used);
  if (free < allowance) {
    report(false, `the filesystem has ${formatBytes(free)} free, less than the ${formatBytes(allowance)} local_max_space still allows: snapshots may fail for lack of disk space first`);
  } else {
    report(true, `the filesystem has ${formatBytes(free)} free`);
  }
}

/** The directories from `dir` up that do not exist yet, deepest first. */
export async function missingDirectories(dir: string): Promise<string[]> {
  const missing: string[] = [];
  for (let d = dir; ; d = dirname(d)) {
    try {
      await stat(d);
      return missing;
    } catch {
      missing.push(d);
      if (dirname(d) === d) return missing;
    }
  }
}

/** Removes the given directories, deepest first, where empty (rmdir never deletes content). */
export async function removeEmptyDirectories(dirs: string[]): Promise<void> {
  for (const d of dirs) {
    try {
      await rmdir(d);
    } catch {
      return;
    }
  }
}
