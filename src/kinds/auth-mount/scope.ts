import { Address } from '../../core/address.js';
import { MountPath } from '../../core/mount-path.js';

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
  /** One segment or more (`corp`, `team/corp`). */
  mount: MountPath;
}

/** `<ns>/sys/auth/<mount>`: the auth method itself. */
export function authMountAddress(s: AuthMountScope): Address {
  return new Address(s.cluster, [...namespaceSegments(s.namespace), 'sys', 'auth', ...s.mount.segments]);
}

/** `<ns>/auth/<mount>`: where the method's own objects live. */
export function authMethodAddress(s: AuthMountScope): Address {
  return new Address(s.cluster, [...namespaceSegments(s.namespace), 'auth', ...s.mount.segments]);
}

/**
 * The scope an `auth.mount` address (`[ns/]sys/auth/<mount>`) stands for. The namespace ends at
 * the first `sys` segment (the service reserves `sys` and `auth` as namespace names); the mount
 * is every segment after `sys/auth`, however many.
 */
export function scopeOfAuthMount(a: Address): AuthMountScope {
  const segs = a.segments;
  const at = segs.findIndex((s, i) => s === 'sys' && segs[i + 1] === 'auth');
  if (at < 0 || at + 2 >= segs.length) throw new Error(`${a}: not the address of an auth mount`);
  return { cluster: a.cluster, namespace: segs.slice(0, at).join('/'), mount: MountPath.of(segs.slice(at + 2).join('/')) };
}

function namespaceSegments(namespace: string): string[] {
  return namespace === '' ? [] : namespace.split('/');
}
