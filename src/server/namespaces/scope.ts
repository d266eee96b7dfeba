import type { ClusterServices } from '../services.js';
import { MountTable } from '../sys/mount-table.js';
import { defaultNamespaceMounts } from './default-mounts.js';

/**
 * Where a namespace's own state lives in the cluster's store: the root namespace's at the top
 * (`core/...`), another's under `namespaces/<encoded name>/` (one segment, so nested namespaces
 * never share a prefix: `a/b` is `namespaces/a%2Fb/`).
 */
export function namespaceKeyPrefix(namespace: string): string {
  return namespace === '' ? '' : `namespaces/${encodeURIComponent(namespace)}/`;
}

/**
 * The cluster as handlers of a namespace see it: the same cluster, except `namespace` and its
 * own mount table. A namespace is created through sys/namespaces (registry.ts); until
 * something is written in it, it has the default mounts and no managed keys.
 *
 * Built by prototype delegation, so every other member of the cluster (tokens, store, log,
 * whatever is added later) is the cluster's own, getters included.
 */
export function namespaceServices(cluster: ClusterServices, namespace: string): ClusterServices {
  if (namespace === '') return cluster;
  const mounts = new MountTable(cluster.store, {
    keyPrefix: namespaceKeyPrefix(namespace),
    initial: (kind) => defaultNamespaceMounts(namespace, kind),
  });
  return Object.create(cluster, {
    namespace: { value: namespace, enumerable: true },
    mounts: { value: mounts, enumerable: true },
  }) as ClusterServices;
}
