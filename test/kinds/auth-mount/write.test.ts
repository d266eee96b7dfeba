import { describe, expect, test } from 'vitest';
import { MountPath } from '../../../src/core/mount-path.js';
import type { Change } from '../../../src/core/plan.js';
import { desiredAuthMount } from '../../../src/kinds/auth-mount/desired.js';
import { applyAuthMountChange } from '../../../src/kinds/auth-mount/write.js';
import type { AuthMountScope } from '../../../src/kinds/auth-mount/scope.js';
import { caught, client } from '../../client/support.js';
import { change } from '../../core/builders.js';
import { useRecordedEmulator } from './emulator.js';

const emulator = useRecordedEmulator();

function mountChange(scope: AuthMountScope, action: Change['action']): Change {
  const { address, resourceType, attrs } = desiredAuthMount(scope, 'ldap');
  return change({ address, resourceType, action, after: attrs, changedFields: ['type'] });
}

describe('applyAuthMountChange', () => {
  test("create enables the method at the change's own address with its type; enabling it again is the service's error", async () => {
    const { cluster, recorder } = emulator();
    const scope = { cluster: 'east', namespace: 'team-a', mount: MountPath.of('corp') };
    recorder.requests.length = 0;
    await applyAuthMountChange(mountChange(scope, 'create'), desiredAuthMount(scope, 'ldap'), client(recorder.baseUrl));
    expect(recorder.requests).toEqual([{ method: 'POST', target: '/v1/team-a/sys/auth/corp' }]);
    expect((await cluster.raw('GET', 'team-a/sys/auth')).body).toHaveProperty(['data', 'corp/', 'type'], 'ldap');
    // The path is in use now: the service refuses, and the error says so.
    recorder.requests.length = 0;
    const again = await caught(() => applyAuthMountChange(mountChange(scope, 'create'), desiredAuthMount(scope, 'ldap'), client(recorder.baseUrl)));
    // 400, as Vault answers it: the coded 409 goes with an error response, which logical.RespondErrorCommon answers as 400 (sdk/logical/response_util.go).
    expect(again.message).toMatch(/400.*path is already in use/);
    expect(recorder.requests).toHaveLength(1);
  });

  test('never disables or updates a method, and has no transitions: nothing is sent', async () => {
    const { recorder } = emulator();
    const scope = { cluster: 'east', namespace: '', mount: MountPath.of('corp') };
    recorder.requests.length = 0;
    const east = client(recorder.baseUrl);
    expect((await caught(() => applyAuthMountChange(mountChange(scope, 'delete'), undefined, east))).message).toBe('east:sys/auth/corp: lockstep never disables auth methods');
    expect((await caught(() => applyAuthMountChange(mountChange(scope, 'update'), desiredAuthMount(scope, 'ldap'), east))).message).toBe(
      'east:sys/auth/corp: lockstep never updates auth methods (their type is fixed once enabled)',
    );
    expect((await caught(() => applyAuthMountChange(mountChange(scope, 'transition'), undefined, east))).message).toBe('east:sys/auth/corp: auth mounts have no transitions');
    expect((await caught(() => applyAuthMountChange(mountChange(scope, 'create'), undefined, east))).message).toBe('east:sys/auth/corp: no desired object to write');
    expect(recorder.requests).toEqual([]);
  });
});
