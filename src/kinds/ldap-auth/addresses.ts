import type { Address } from '../../core/address.js';
import type { MountPath } from '../../core/mount-path.js';
import { AUTH_MOUNT_TYPE, authMethodAddress, authMountAddress } from '../auth-mount/scope.js';

/** Resource types of this kind (the names Change.resourceType and DesiredResource use). */
export const LDAP_RESOURCE_TYPES = {
  mount: AUTH_MOUNT_TYPE,
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

export function ldapMountAddresses(cluster: string, namespace: string, mount: MountPath): LdapMountAddresses {
  const scope = { cluster, namespace, mount };
  const base = authMethodAddress(scope);
  const groups = base.child('groups');
  const users = base.child('users');
  return {
    mount: authMountAddress(scope),
    config: base.child('config'),
    groups,
    users,
    // A name is one segment, checked by child(): never split, whatever it holds.
    group: (name) => groups.child(name),
    user: (name) => users.child(name),
  };
}
