import { scopeKey, type SnapshotScope } from './addresses.js';
import type { SnapshotPolicyDocument } from './types.js';

/**
 * Where a document's configuration lives. sys/storage/raft is cluster-wide: the service serves
 * snapshot-auto in the root namespace only, so a cluster's default namespace does not apply
 * (and the rules refuse an explicit one).
 */
export function scopeOf(doc: SnapshotPolicyDocument): SnapshotScope {
  return { cluster: doc.data.cluster, namespace: '' };
}

/** The SnapshotPolicy documents of one cluster: one collection of configurations. */
export interface ScopeGroup {
  scope: SnapshotScope;
  /** In load order. */
  docs: SnapshotPolicyDocument[];
}

/** Groups documents by scope (cluster), in order of first appearance. */
export function groupByScope(docs: readonly SnapshotPolicyDocument[]): ScopeGroup[] {
  const groups = new Map<string, ScopeGroup>();
  for (const doc of docs) {
    const scope = scopeOf(doc);
    const key = scopeKey(scope);
    let group = groups.get(key);
    if (!group) {
      group = { scope, docs: [] };
      groups.set(key, group);
    }
    group.docs.push(doc);
  }
  return [...groups.values()];
}
