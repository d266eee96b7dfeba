import { Address } from '../../core/address.js';

/** The API path of the snapshot configurations, below the namespace. */
export const SNAPSHOT_AUTO_PATH = 'sys/storage/raft/snapshot-auto';

/** Where a cluster's (namespace's) snapshot configurations live. */
export interface SnapshotScope {
  cluster: string;
  /** '' for the root namespace. */
  namespace: string;
}

function nsSegments(namespace: string): string[] {
  return namespace.split('/').filter((s) => s !== '');
}

/** `<cluster>:<ns/>sys/storage/raft/snapshot-auto/config`: the collection. */
export function configCollection(scope: SnapshotScope): Address {
  return new Address(scope.cluster, [...nsSegments(scope.namespace), ...SNAPSHOT_AUTO_PATH.split('/'), 'config']);
}

/** `<cluster>:<ns/>sys/storage/raft/snapshot-auto/config/<name>`; the name is one segment. */
export function configAddress(scope: SnapshotScope, name: string): Address {
  return new Address(scope.cluster, [...configCollection(scope).segments, name]);
}

/** `<ns/>sys/storage/raft/snapshot-auto/status/<name>` (a path, for the client). */
export function statusPath(scope: SnapshotScope, name: string): string {
  return [...nsSegments(scope.namespace), ...SNAPSHOT_AUTO_PATH.split('/'), 'status', name].join('/');
}

/** The scope and name of a configuration address (inverse of configAddress). */
export function scopeOfConfig(address: Address): { scope: SnapshotScope; name: string } {
  const segs = address.segments;
  const tail = SNAPSHOT_AUTO_PATH.split('/').length + 2; // .../snapshot-auto + config + <name>
  return { scope: { cluster: address.cluster, namespace: segs.slice(0, -tail).join('/') }, name: segs[segs.length - 1]! };
}

/** The scope of a collection address (inverse of configCollection). */
export function scopeOfCollection(address: Address): SnapshotScope {
  const tail = SNAPSHOT_AUTO_PATH.split('/').length + 1; // .../snapshot-auto + config
  return { cluster: address.cluster, namespace: address.segments.slice(0, -tail).join('/') };
}

export function scopeKey(scope: SnapshotScope): string {
  return JSON.stringify([scope.cluster, scope.namespace]);
}

/** `cluster east` (+ `, namespace team-a`): how messages name a scope. */
export function describeScope(scope: SnapshotScope): string {
  return `cluster ${scope.cluster}${scope.namespace === '' ? '' : `, namespace ${scope.namespace}`}`;
}
