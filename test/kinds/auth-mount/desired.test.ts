import { describe, expect, test } from 'vitest';
import { MountPath } from '../../../src/core/mount-path.js';
import { Address } from '../../../src/core/address.js';
import { desiredAuthMount } from '../../../src/kinds/auth-mount/desired.js';
import { AUTH_MOUNT_TYPE } from '../../../src/kinds/auth-mount/scope.js';

describe('desiredAuthMount', () => {
  test('the method type is a parameter: a mount enabled with that type, nothing else managed', () => {
    expect(desiredAuthMount({ cluster: 'east', namespace: 'team-a', mount: MountPath.of('corp') }, 'userpass')).toEqual({
      address: new Address('east', 'team-a/sys/auth/corp'),
      resourceType: AUTH_MOUNT_TYPE,
      attrs: { type: 'userpass' },
      writeOnly: {},
      sensitiveFields: [],
      dependsOn: [],
    });
    expect(AUTH_MOUNT_TYPE).toBe('auth.mount');
  });
});
