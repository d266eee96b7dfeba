/**
 * One snapshot attempt: write the encoded snapshot to `<path_prefix>/<file_prefix>-<ns>.snap`,
 * then delete the oldest snapshots beyond `retain`. For `local`, the attempt fails before
 * writing when the existing snapshots of this file_prefix plus the new one would exceed
 * local_max_space. Every message is scrubbed of the configuration's secrets.
 */
import {
  openObjectStore,
  retentionVictims,
  snapshotListPrefix,
  snapshotObjectName,
  snapshotObjects,
  usedSpace,
  type ObjectStore,
  type OpenOptions,
  type SnapshotStorageConfig,
} from '../../adapters/storage/index.js';
import { scrubConfigSecrets, type LocalSnapshotConfig, type SnapshotConfig } from './config.js';
import type { AttemptOutcome } from './status.js';

export type OpenStore = (config: SnapshotStorageConfig, options: OpenOptions) => ObjectStore;

/** Bounded, so a dead destination fails an attempt instead of holding it for minutes. */
const OPEN_OPTIONS: OpenOptions = { attempts: 2, timeoutMs: 30_000 };

export interface AttemptInput {
  config: SnapshotConfig;
  /** The encoded snapshot (format.ts). */
  snapshot: Buffer;
  /** The attempt's time in Unix nanoseconds: the object's name. */
  nowNs: bigint;
  /** Called once the object's URL is known, before anything is written. */
  onStarted?: (url: string) => void;
  open?: OpenStore;
}

export async function runAttempt(input: AttemptInput): Promise<AttemptOutcome> {
  const { config, snapshot } = input;
  let url = '';
  try {
    const store = (input.open ?? openObjectStore)(config, OPEN_OPTIONS);
    const name = snapshotObjectName(config.path_prefix, config.file_prefix, input.nowNs);
    url = store.urlOf(name);
    input.onStarted?.(url);
    if (config.storage_type === 'local') await checkLocalSpace(store, config, snapshot.length);
    await store.put(name, snapshot);
    try {
      await applyRetention(store, config);
    } catch (err) {
      throw new Error(`the snapshot was written, but deleting snapshots beyond retain ${config.retain} failed: ${messageOf(err)}`);
    }
    return { ok: true, url, bytes: snapshot.length };
  } catch (err) {
    return { ok: false, url, error: scrubConfigSecrets(messageOf(err), config) };
  }
}

async function checkLocalSpace(store: ObjectStore, config: LocalSnapshotConfig, newBytes: number): Promise<void> {
  const listed = await store.list(snapshotListPrefix(config.path_prefix, config.file_prefix));
  const used = usedSpace(snapshotObjects(listed, config.file_prefix, config.path_prefix));
  if (used + newBytes > config.local_max_space) {
    throw new Error(
      `local_max_space exceeded: existing snapshots use ${used} bytes and this one needs ${newBytes}, more than the allowed ${config.local_max_space} bytes`,
    );
  }
}

async function applyRetention(store: ObjectStore, config: SnapshotConfig): Promise<void> {
  const listed = await store.list(snapshotListPrefix(config.path_prefix, config.file_prefix));
  for (const victim of retentionVictims(listed, config.file_prefix, config.retain, config.path_prefix)) {
    await store.remove(victim.name);
  }
}

function messageOf(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}
