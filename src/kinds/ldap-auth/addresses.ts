import { Address } from '../../core/address.js';

/** Resource types of this kind (the names Change.resourceType and DesiredResource use). */
export const LDAP_RESOURCE_TYPES = {
  mount: 'auth.mount',
  config: 'ldap.config',
  group: 'ldap.group',
  user: 'ldap.user',
} as const;

/** The addresses of one LDAP mount; namespace first (`team-a/auth/ldap/config`). */
export interface LdapMountAddresses {
  /** `<ns>/sys/auth/<mount>`: the auth method itself. */
  mount: Address;
  /** `<ns>/auth/<mount>/config` */
  config: Address;
  /** `<ns>/auth/<mount>/groups` (the collection) */
  groups: Address;
  /** `<ns>/auth/<mount>/users` (the collection) */
  users: Address;
  group(name: string): Address;
  user(name: string): Address;
}

export function ldapMountAddresses(cluster: string, namespace: string, mount: string): LdapMountAddresses {
  const ns = namespace.split('/').filter((s) => s !== '');
  const base = new Address(cluster, [...ns, 'auth', ...mount.split('/')]);
  const groups = base.child('groups');
  const users = base.child('users');
  return {
    mount: new Address(cluster, [...ns, 'sys', 'auth', ...mount.split('/')]),
    config: base.child('config'),
    groups,
    users,
    // A name is one segment even if it held a "/" (rules refuse that anyway).
    group: (name) => new Address(cluster, [...groups.segments, name]),
    user: (name) => new Address(cluster, [...users.segments, name]),
  };
}
