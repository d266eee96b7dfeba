import type { Secret } from './secret.js';

/** A server the manifests point at: a `Cluster` document, or the implicit `default` from SERVICE_ADDR. */
export interface ClusterTarget {
  name: string;
  /** The base URL, ending in `/v1` (no trailing slash). */
  address: string;
  token: Secret;
  caCert?: string;
  insecureSkipVerify: boolean;
  /** Namespace applied to documents that name none (SERVICE_NAMESPACE for the implicit cluster). */
  defaultNamespace?: string;
}
