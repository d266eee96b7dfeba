import { MountPath } from '../../core/mount-path.js';
import type { ResolvedDocument } from '../../load/document.js';
import type { AuthMountScope } from './scope.js';

/** A placed document of an auth method kind: `mount` names its mount (the kind's default when absent). */
export type MountedDocument = ResolvedDocument<{ cluster: string; namespace: string; mount?: string }>;

/** All documents of one cluster + namespace + mount: they merge into one method. */
export interface AuthMountGroup<D extends MountedDocument> extends AuthMountScope {
  /** In load order. */
  docs: D[];
}

/**
 * Groups documents by cluster, namespace and mount (`defaultMount` when a document names none),
 * in order of first appearance. A document whose `mount` is not a mount path is in no group:
 * checkMountPath reports it, and nothing is planned from an invalid document.
 */
export function groupByAuthMount<D extends MountedDocument>(docs: readonly D[], defaultMount: MountPath): AuthMountGroup<D>[] {
  const groups = new Map<string, AuthMountGroup<D>>();
  for (const doc of docs) {
    const { cluster, namespace } = doc.data;
    const parsed = doc.data.mount === undefined ? { ok: true as const, mount: defaultMount } : MountPath.parse(doc.data.mount);
    if (!parsed.ok) continue;
    const mount = parsed.mount;
    const key = JSON.stringify([cluster, namespace, mount.segments]);
    let group = groups.get(key);
    if (!group) {
      group = { cluster, namespace, mount, docs: [] };
      groups.set(key, group);
    }
    group.docs.push(doc);
  }
  return [...groups.values()];
}

/** `mount "corp" (cluster default)` (+ namespace): how messages name a mount. */
export function describeAuthMount(scope: AuthMountScope): string {
  const ns = scope.namespace === '' ? '' : `, namespace ${scope.namespace}`;
  return `mount "${scope.mount.text}" (cluster ${scope.cluster}${ns})`;
}
