export { CLUSTER_KIND, CLUSTER_SCHEMA_FILE, clusterSecretPaths } from './kind.js';
export type { ClusterCatalogue, KnownCluster } from './catalogue.js';
export { checkClusterValues, clustersFromDocuments } from './from-documents.js';
export { clusterFromEnvironment, environmentSecretTexts } from './from-environment.js';
export { placeDocument } from './placement.js';
export { normaliseBaseUrl } from './base-url.js';
export { checkProxies } from './proxies.js';
