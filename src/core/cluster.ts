import type { Secret } from './secret.js';

/**
 * How lockstep comes by the token it sends to a cluster: a token given as it is, or a login
 * through an auth method (once per run, before the first request; revoked at the run's end).
 */
export type ClusterAuth =
  | { method: 'token'; token: Secret }
  /** `POST <namespace>/auth/<mount>/login` with `role` and `jwt` (a CI job's OIDC identity token). */
  | { method: 'jwt'; mount: string; role: string; jwt: Secret; namespace?: string }
  /** `POST <namespace>/auth/<mount>/login` with `role_id` and `secret_id`. */
  | { method: 'approle'; mount: string; roleId: Secret; secretId: Secret; namespace?: string };

export type AuthMethod = ClusterAuth['method'];

/** The mount path of each login method when none is given (the service's default paths). */
export const DEFAULT_AUTH_MOUNT: Record<Exclude<AuthMethod, 'token'>, string> = { jwt: 'jwt', approle: 'approle' };

/** A server the manifests point at: a `Cluster` document, or the implicit `default` from SERVICE_ADDR. */
export interface ClusterTarget {
  name: string;
  /** The base URL, ending in `/v1` (no trailing slash). */
  address: string;
  auth: ClusterAuth;
  /**
   * Where the credentials were given, for messages (never a value): `environment variable
   * SERVICE_TOKEN`, `Cluster document clusters.yaml:7:3`.
   */
  authSource: string;
  caCert?: string;
  insecureSkipVerify: boolean;
  /** Namespace applied to documents that name none (SERVICE_NAMESPACE for the implicit cluster). */
  defaultNamespace?: string;
}

/**
 * Where the token a cluster is sent comes from, in words (no secret): `the token from
 * env:EAST_TOKEN (Cluster document c.yaml:5:8)`, `a jwt login as role "ci" at auth/jwt (...)`.
 */
export function describeAuth(target: Pick<ClusterTarget, 'auth' | 'authSource'>): string {
  const { auth, authSource } = target;
  switch (auth.method) {
    case 'token':
      return `the token from ${originWords(auth.token)} (${authSource})`;
    case 'jwt':
      return `a jwt login as role ${JSON.stringify(auth.role)} at ${loginMountPath(auth)} with the JWT from ${originWords(auth.jwt)} (${authSource})`;
    case 'approle':
      return `an approle login at ${loginMountPath(auth)} with the role_id from ${originWords(auth.roleId)} (${authSource})`;
  }
}

/** `auth/jwt`, or `team-a/auth/jwt` for a method mounted in a namespace. */
export function loginMountPath(auth: Extract<ClusterAuth, { mount: string }>): string {
  return `${auth.namespace ? `${auth.namespace}/` : ''}auth/${auth.mount}`;
}

/** `env:EAST_TOKEN` → `environment variable EAST_TOKEN`; `file:t.jwt` → `file t.jwt`. */
function originWords(secret: Secret): string {
  const [scheme, ...rest] = secret.origin.split(':');
  const name = rest.join(':');
  if (scheme === 'env') return `environment variable ${name}`;
  if (scheme === 'file') return `file ${name}`;
  return secret.origin === 'literal' ? 'a literal value' : secret.origin;
}
