import type { ValuePath } from '../../load/document.js';

/** `Cluster` documents are not a KindModule: they name servers, they are not reconciled. */
export const CLUSTER_KIND = 'Cluster';
export const CLUSTER_SCHEMA_FILE = 'cluster.schema.json';
/** The cluster defined by SERVICE_ADDR/SERVICE_TOKEN when no Cluster document exists. */
export const IMPLICIT_CLUSTER_NAME = 'default';

/** A Cluster document's value after schema validation and reference resolution. */
export type ClusterData = {
  apiVersion: string;
  kind: typeof CLUSTER_KIND;
  name: string;
  address: string;
  token: unknown;
  namespace?: string;
  caCert?: string;
  insecureSkipVerify?: boolean | 'true' | 'false';
};

export function clusterSecretPaths(value: unknown): ValuePath[] {
  const present = value !== null && typeof value === 'object' && 'token' in value;
  return present ? [['token']] : [];
}

/** Cluster names appear in addresses (`<name>:<path>`), so they keep to address-safe characters. */
export const CLUSTER_NAME = /^[A-Za-z0-9_.-]+$/;
