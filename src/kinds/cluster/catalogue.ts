import type { ClusterTarget } from '../../core/cluster.js';
import type { SourcePos } from '../../core/diagnostics.js';

/** A cluster documents may name, complete or not. */
export interface KnownCluster {
  name: string;
  /** Namespace of documents that name none; '' is the root namespace. */
  defaultNamespace: string;
  /** Where the manifests define it (worked out only when a message needs it). */
  declaredAt?: () => SourcePos;
}

/**
 * The clusters of a run. `known` holds every name a document may use (so a broken Cluster
 * document does not also make every document naming it "unknown"); `targets` only those
 * complete and valid enough to talk to.
 */
export interface ClusterCatalogue {
  known: ReadonlyMap<string, KnownCluster>;
  targets: Map<string, ClusterTarget>;
}
