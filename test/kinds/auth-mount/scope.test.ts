import { describe, expect, test } from 'vitest';
import { MountPath } from '../../../src/core/mount-path.js';
import { Address } from '../../../src/core/address.js';
import { authMethodAddress, authMountAddress, scopeOfAuthMount } from '../../../src/kinds/auth-mount/scope.js';

describe('auth mount addresses', () => {
  test('the mount at <ns>/sys/auth/<mount>, its objects below <ns>/auth/<mount>', () => {
    expect(authMountAddress({ cluster: 'east', namespace: '', mount: MountPath.of('corp') }).toString()).toBe('east:sys/auth/corp');
    expect(authMountAddress({ cluster: 'east', namespace: 'a/b', mount: MountPath.of('corp') }).segments).toEqual(['a', 'b', 'sys', 'auth', 'corp']);
    expect(authMethodAddress({ cluster: 'east', namespace: 'team-a', mount: MountPath.of('corp') }).toString()).toBe('east:team-a/auth/corp');
  });

  test('an auth.mount address reads back as the scope it was made from', () => {
    for (const scope of [
      { cluster: 'east', namespace: '', mount: MountPath.of('corp') },
      { cluster: 'west', namespace: 'a/b', mount: MountPath.of('sys') },
      { cluster: 'west', namespace: '', mount: MountPath.of('team/ldap') },
      { cluster: 'west', namespace: 'a/b', mount: MountPath.of('x/sys/auth/y') },
    ]) {
      expect(scopeOfAuthMount(authMountAddress(scope))).toEqual(scope);
    }
    expect(scopeOfAuthMount(new Address('east', 'team-a/sys/auth/userpass'))).toEqual({ cluster: 'east', namespace: 'team-a', mount: MountPath.of('userpass') });
  });
});
