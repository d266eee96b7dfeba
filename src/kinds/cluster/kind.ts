import type { ValuePath } from '../../load/document.js';

/** `Cluster` documents are not a KindModule: they name servers, they are not reconciled. */
export const CLUSTER_KIND = 'Cluster';
export const CLUSTER_SCHEMA_FILE = 'cluster.schema.json';
/** The cluster defined by SERVICE_ADDR/SERVICE_TOKEN when no Cluster document exists. */
export const IMPLICIT_CLUSTER_NAME = 'default';

/** A Cluster document's `auth` after schema validation and reference resolution. */
export interface ClusterAuthData {
  method: 'token' | 'jwt' | 'approle';
  token?: unknown;
  role?: string;
  jwt?: unknown;
  roleId?: unknown;
  secretId?: unknown;
  mount?: string;
  namespace?: string;
}

/** A Cluster document's value after schema validation and reference resolution. */
export type ClusterData = {
  apiVersion: string;
  kind: typeof CLUSTER_KIND;
  name: string;
  address: string;
  token?: unknown;
  auth?: ClusterAuthData;
  namespace?: string;
  caCert?: string;
  insecureSkipVerify?: boolean | 'true' | 'false';
  /** Rules accepted for this cluster: a SHA-1 caCert (validate/certificates.ts). */
  acknowledge?: string[];
};

/** The credentials of `auth`: the token, the JWT, the role_id and the secret_id. */
const AUTH_SECRET_FIELDS = ['token', 'jwt', 'roleId', 'secretId'] as const;

export function clusterSecretPaths(value: unknown): ValuePath[] {
  if (!isObject(value)) return [];
  const paths: ValuePath[] = 'token' in value ? [['token']] : [];
  const auth = value['auth'];
  if (isObject(auth)) for (const field of AUTH_SECRET_FIELDS) if (field in auth) paths.push(['auth', field]);
  return paths;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

/** Cluster names appear in addresses (`<name>:<path>`), so they keep to address-safe characters. */
export const CLUSTER_NAME = /^[A-Za-z0-9_.-]+$/;
