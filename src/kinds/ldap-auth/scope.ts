import { Address } from '../../core/address.js';

/** One LDAP method instance: a mount on a cluster, in a namespace. */
export interface LdapScope {
  cluster: string;
  /** Namespace path segments ('' for the root namespace). */
  namespace: string;
  mount: string;
}

export function mountAddress(s: LdapScope): Address {
  return new Address(s.cluster, [s.namespace, 'sys/auth', s.mount].join('/'));
}

export function methodAddress(s: LdapScope): Address {
  return new Address(s.cluster, [s.namespace, 'auth', s.mount].join('/'));
}

/** The scope an `auth.mount` address (`[ns/]sys/auth/<mount>`) stands for; mounts are one segment. */
export function scopeOfMount(a: Address): LdapScope {
  const segs = a.segments;
  return { cluster: a.cluster, namespace: segs.slice(0, -3).join('/'), mount: segs[segs.length - 1]! };
}
