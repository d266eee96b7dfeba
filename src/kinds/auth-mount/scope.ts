import { Address } from '../../core/address.js';

/**
 * An auth mount, shared by every auth method kind: the method is enabled at
 * `<ns>/sys/auth/<mount>` and lives below `<ns>/auth/<mount>`. Only the method's type (`userpass`,
 * `oidc`, ...) tells one kind's mounts from another's.
 */

/** The resource type of the mount itself (Change.resourceType, DesiredResource.resourceType). */
export const AUTH_MOUNT_TYPE = 'auth.mount';

/** One auth method instance: a mount on a cluster, in a namespace. */
export interface AuthMountScope {
  cluster: string;
  /** Namespace path segments ('' for the root namespace). */
  namespace: string;
  /** One path segment (checkMountPath). */
  mount: string;
}

/** `<ns>/sys/auth/<mount>`: the auth method itself. */
export function authMountAddress(s: AuthMountScope): Address {
  return new Address(s.cluster, [s.namespace, 'sys/auth', s.mount].join('/'));
}

/** `<ns>/auth/<mount>`: where the method's own objects live. */
export function authMethodAddress(s: AuthMountScope): Address {
  return new Address(s.cluster, [s.namespace, 'auth', s.mount].join('/'));
}

/** The scope an `auth.mount` address (`[ns/]sys/auth/<mount>`) stands for; mounts are one segment. */
export function scopeOfAuthMount(a: Address): AuthMountScope {
  const segs = a.segments;
  return { cluster: a.cluster, namespace: segs.slice(0, -3).join('/'), mount: segs[segs.length - 1]! };
}
