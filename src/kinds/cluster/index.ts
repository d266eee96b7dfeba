export { CLUSTER_KIND, CLUSTER_SCHEMA_FILE, IMPLICIT_CLUSTER_NAME, clusterSecretPaths, type ClusterData } from './kind.js';
export type { ClusterCatalogue, KnownCluster } from './catalogue.js';
export { clustersFromDocuments } from './from-documents.js';
export { clusterFromEnvironment, type EnvironmentClusterOptions } from './from-environment.js';
export { placeDocument, type Placement } from './placement.js';
export { normaliseBaseUrl } from './base-url.js';
