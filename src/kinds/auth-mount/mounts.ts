import type { ResolvedDocument } from '../../load/document.js';
import type { AuthMountScope } from './scope.js';

/** A placed document of an auth method kind: `mount` names its mount (the kind's default when absent). */
export type MountedDocument = ResolvedDocument<{ cluster: string; namespace: string; mount?: string }>;

/** All documents of one cluster + namespace + mount: they merge into one method. */
export interface AuthMountGroup<D extends MountedDocument> extends AuthMountScope {
  /** In load order. */
  docs: D[];
}

/** Groups documents by cluster, namespace and mount (`defaultMount` when a document names none), in order of first appearance. */
export function groupByAuthMount<D extends MountedDocument>(docs: readonly D[], defaultMount: string): AuthMountGroup<D>[] {
  const groups = new Map<string, AuthMountGroup<D>>();
  for (const doc of docs) {
    const { cluster, namespace } = doc.data;
    const mount = doc.data.mount ?? defaultMount;
    const key = JSON.stringify([cluster, namespace, mount]);
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
  return `mount "${scope.mount}" (cluster ${scope.cluster}${ns})`;
}
