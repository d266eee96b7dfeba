/**
 * `lockstep check` of a snapshot destination: can the server write, read back, list and
 * delete there? A probe object `<path_prefix>/<file_prefix>-lockstep-probe-<random>` is
 * written, read back and removed (its name never matches the snapshot pattern, so a leftover
 * probe is never counted or rotated as a snapshot). The existing snapshots are listed, as
 * retention needs. For `local`, the space used against local_max_space and the free space of
 * the filesystem are reported too. Findings never contain a secret value.
 */
import { randomBytes } from 'node:crypto';
import {
  DEFAULT_FILE_PREFIX,
  LocalStore,
  openObjectStore,
  probeObjectName,
  snapshotListPrefix,
  snapshotObjects,
  StorageError,
  usedSpace,
  type ObjectStore,
  type SnapshotStorageConfig,
} from '../../adapters/storage/index.js';
import { scrub } from '../../core/secret.js';
import { checkLocalSpace, missingDirectories, removeEmptyDirectories } from './local-space.js';
import { unwrapConfig, type Finding, type SnapshotCheckConfig } from './types.js';

export interface DestinationCheckOptions {
  /** Per-request timeout (default 15 s): a check should not hang on a black-holed endpoint. */
  timeoutMs?: number;
}

export async function checkSnapshotDestination(
  config: SnapshotCheckConfig,
  options: DestinationCheckOptions = {},
): Promise<Finding[]> {
  const { plain, secrets } = unwrapConfig(config);
  const findings: Finding[] = [];
  let subject = `snapshot destination${config.name ? ` ${config.name}` : ''} (${plain.storage_type})`;
  const report = (ok: boolean, message: string) => findings.push({ ok, subject: scrub(subject, secrets), message: scrub(message, secrets) });

  let store: ObjectStore;
  try {
    store = openObjectStore(plain, { attempts: 2, timeoutMs: options.timeoutMs ?? 15_000 });
  } catch (err) {
    report(false, `invalid destination: ${messageOf(err)}`);
    return findings;
  }
  subject = store.describe();
  const filePrefix = plain.file_prefix || DEFAULT_FILE_PREFIX;

  const created = store instanceof LocalStore ? await missingDirectories(store.root) : [];
  try {
    if (!(await probe(store, plain, filePrefix, report))) return findings;
    await listSnapshots(store, plain, filePrefix, report);
    if (store instanceof LocalStore) await checkLocalSpace(store, plain, filePrefix, report);
  } finally {
    // The check must not leave directories behind that only the probe created.
    if (created.length > 0) await removeEmptyDirectories(created);
  }
  if (created.length > 0) report(true, 'the directory does not exist yet; the first snapshot will create it');
  return findings;
}

type Report = (ok: boolean, message: string) => void;

/** Write, read back and remove a probe object; false when the destination is not usable. */
async function probe(store: ObjectStore, config: SnapshotStorageConfig, filePrefix: string, report: Report): Promise<boolean> {
  const name = probeObjectName(config.path_prefix, filePrefix, randomBytes(8).toString('hex'));
  const payload = Buffer.from(`lockstep check probe ${new Date().toISOString()}\n`);
  try {
    await store.put(name, payload);
  } catch (err) {
    report(false, `not writable: writing probe object ${name} failed: ${messageOf(err)}`);
    return false;
  }
  let readable = true;
  try {
    const back = await store.get(name);
    if (!back.equals(payload)) {
      readable = false;
      report(false, `probe object ${name} read back with different content (${back.length} of ${payload.length} bytes)`);
    }
  } catch (err) {
    readable = false;
    report(false, `probe object ${name} was written but cannot be read back: ${messageOf(err)}`);
  }
  try {
    await store.remove(name);
  } catch (err) {
    report(false, `probe object ${name} was written but cannot be deleted (retention would fail; remove it by hand): ${messageOf(err)}`);
    return false;
  }
  if (readable) report(true, 'reachable and writable: probe object written, read back and deleted');
  return readable;
}

async function listSnapshots(store: ObjectStore, config: SnapshotStorageConfig, filePrefix: string, report: Report): Promise<void> {
  try {
    const listed = await store.list(snapshotListPrefix(config.path_prefix, filePrefix));
    const snaps = snapshotObjects(listed, filePrefix, config.path_prefix);
    const newest = snaps.at(-1);
    report(
      true,
      snaps.length === 0
        ? `no snapshots named ${filePrefix}-<time>.snap yet`
        : `${snaps.length} snapshot(s) using ${usedSpace(snaps)} bytes; newest ${newest!.name}`,
    );
  } catch (err) {
    report(false, `cannot list existing snapshots (retention would fail): ${messageOf(err)}`);
  }
}

/** The cause alone for storage errors: the finding already names the object. */
function messageOf(err: unknown): string {
  if (err instanceof StorageError) return err.detail;
  return err instanceof Error ? err.message : String(err);
}
