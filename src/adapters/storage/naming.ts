/**
 * Snapshot object names, as the service writes them:
 * `<path_prefix>/<file_prefix>-<unix nanoseconds>.snap`. For `local` the prefix is a directory;
 * for cloud types it is an object-key prefix (the spec requires a trailing `/` for provB-blob
 * and provC-gcs and allows it for local and provA-s3; either way one `/` separates).
 */
import type { ObjectInfo, StorageType } from './types.js';

/** The spec's defaults of `file_prefix` and `retain`. */
export const DEFAULT_FILE_PREFIX = 'vault-snapshot';
export const DEFAULT_RETAIN = 1;

/** Types whose path_prefix must end in `/` (a bucket or container prefix). */
export function needsTrailingSlash(type: StorageType): boolean {
  return type === 'provB-blob' || type === 'provC-gcs';
}

/** `prefix` + `/` + `leaf`, with exactly one separator; an empty prefix gives `leaf`. */
export function joinPrefix(pathPrefix: string, leaf: string): string {
  if (pathPrefix === '') return leaf;
  const base = pathPrefix.replace(/\/+$/, '');
  return `${base}/${leaf}`;
}

export function snapshotObjectName(pathPrefix: string, filePrefix: string, nowNs: bigint): string {
  return joinPrefix(pathPrefix, `${filePrefix}-${nowNs}.snap`);
}

/** The prefix to `list()` for the snapshots of one configuration. */
export function snapshotListPrefix(pathPrefix: string, filePrefix: string): string {
  return joinPrefix(pathPrefix, filePrefix);
}

/**
 * The nanosecond timestamp of a snapshot name, or undefined when the name's last segment is
 * not exactly `<filePrefix>-<digits>.snap` (so `vault-snapshot-old.snap`, or another prefix
 * that merely starts the same, such as `vault-snapshot-extra-1.snap`, never count).
 */
export function snapshotTimestamp(name: string, filePrefix: string): bigint | undefined {
  const leaf = name.slice(name.lastIndexOf('/') + 1);
  if (!leaf.startsWith(`${filePrefix}-`) || !leaf.endsWith('.snap')) return undefined;
  const digits = leaf.slice(filePrefix.length + 1, -'.snap'.length);
  return /^\d+$/.test(digits) ? BigInt(digits) : undefined;
}

export interface SnapshotObject extends ObjectInfo {
  timestampNs: bigint;
}

/**
 * The snapshots of one configuration among listed objects, oldest first. With `pathPrefix`,
 * only objects directly under it count (a listing is recursive, and nested keys such as
 * `prefix/old/vault-snapshot-1.snap` belong to someone else); without it, any object whose
 * last segment matches does.
 */
export function snapshotObjects(objects: readonly ObjectInfo[], filePrefix: string, pathPrefix?: string): SnapshotObject[] {
  const found: SnapshotObject[] = [];
  for (const o of objects) {
    const ts = snapshotTimestamp(o.name, filePrefix);
    if (ts === undefined) continue;
    if (pathPrefix !== undefined && o.name !== snapshotObjectName(pathPrefix, filePrefix, ts)) continue;
    found.push({ ...o, timestampNs: ts });
  }
  return found.sort((a, b) => (a.timestampNs < b.timestampNs ? -1 : a.timestampNs > b.timestampNs ? 1 : a.name.localeCompare(b.name)));
}

/**
 * The snapshots to delete so that exactly `retain` (the newest by the timestamp in the name)
 * remain; oldest first. A `retain` below 1 is treated as 1: the snapshot just written is
 * never a victim. Objects that are not snapshots of this prefix are never chosen.
 */
export function retentionVictims(
  objects: readonly ObjectInfo[],
  filePrefix: string,
  retain: number,
  pathPrefix?: string,
): SnapshotObject[] {
  const keep = Number.isFinite(retain) ? Math.max(1, Math.floor(retain)) : 1;
  const snaps = snapshotObjects(objects, filePrefix, pathPrefix);
  return snaps.slice(0, Math.max(0, snaps.length - keep));
}

/** Total bytes of the given objects (pass `snapshotObjects(...)` to count only snapshots). */
export function usedSpace(objects: readonly Pick<ObjectInfo, 'size'>[]): number {
  return objects.reduce((sum, o) => sum + o.size, 0);
}

/** Name of a `lockstep check` probe object: never matches the snapshot pattern. */
export function probeObjectName(pathPrefix: string, filePrefix: string, random: string): string {
  return joinPrefix(pathPrefix, `${filePrefix}-lockstep-probe-${random}`);
}
