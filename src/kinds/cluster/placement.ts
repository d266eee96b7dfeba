import type { Diagnostics } from '../../core/diagnostics.js';
import type { ResolvedDocument } from '../../load/document.js';
import { apiPathProblem } from '../../core/path-segment.js';
import type { ClusterCatalogue } from './catalogue.js';

/** The common fields of every resource document once placed: always set. */
export interface Placement {
  cluster: string;
  /** '' is the root namespace. */
  namespace: string;
}

/**
 * Decides which cluster and namespace a resource document addresses and returns a copy whose
 * `data.cluster` and `data.namespace` are filled in (so kinds never repeat this logic), or
 * undefined when it cannot be decided (reported). `namespace: ""` explicitly means the root
 * namespace, even when the cluster has a default namespace. With no known cluster at all (every
 * Cluster document broken, already reported) nothing more is said.
 */
export function placeDocument<T extends Record<string, unknown>>(
  doc: ResolvedDocument<T>,
  catalogue: ClusterCatalogue,
  diags: Diagnostics,
): ResolvedDocument<T & Placement> | undefined {
  const { cluster: named, namespace } = doc.data as { cluster?: string; namespace?: string };
  const names = [...catalogue.known.keys()];
  let cluster: string | undefined;
  if (named !== undefined) {
    if (catalogue.known.has(named)) cluster = named;
    // Every Cluster document broken (reported already): no list of known ones to point to.
    else if (names.length > 0) diags.error(`cluster: unknown cluster "${named}"; known clusters: ${names.join(', ')}`, doc.source.pos(['cluster']));
  } else if (names.length === 1) {
    cluster = names[0];
  } else if (names.length > 1) {
    diags.error(`cluster: required when several clusters are known (${names.join(', ')})`, doc.source.pos([]));
  }
  let ok = cluster !== undefined;
  if (namespace !== undefined && namespace !== '') {
    const problem = apiPathProblem(namespace);
    if (problem) {
      diags.error(`namespace: ${problem}`, doc.source.pos(['namespace']));
      ok = false;
    }
  }
  if (!ok || cluster === undefined) return undefined;
  const resolvedNamespace = namespace ?? catalogue.known.get(cluster)!.defaultNamespace;
  return { ...doc, data: { ...doc.data, cluster, namespace: resolvedNamespace } };
}
