import { describe, expect, test } from 'vitest';
import { MountPath } from '../../../src/core/mount-path.js';
import type { DesiredState, LiveState } from '../../../src/core/resource.js';
import type { JsonObject } from '../../../src/core/json.js';
import { desiredAuthMount } from '../../../src/kinds/auth-mount/desired.js';
import { authMountsOfType, forEachDesiredAuthMount, readAuthMount, readAuthTable } from '../../../src/kinds/auth-mount/read.js';
import type { AuthMountScope } from '../../../src/kinds/auth-mount/scope.js';
import { client } from '../../client/support.js';
import { useRecordedEmulator } from './emulator.js';

// The emulator enables only `ldap` methods: they stand for "a method of another kind" here,
// while the module is asked about `userpass`, so nothing in it can assume one method type.
const emulator = useRecordedEmulator(['sys/auth/corp', 'sys/auth/b-side', 'team-a/sys/auth/corp']);
const baseUrl = (): string => emulator().cluster.baseUrl;

const empty = (): LiveState => ({ resources: [], observed: {}, notes: [] });
const scope = (mount: string, namespace = ''): AuthMountScope => ({ cluster: 'east', namespace, mount: MountPath.of(mount) });

describe('readAuthMount', () => {
  test('a mount of the asked type is enabled: its live object and what was observed', async () => {
    const live = empty();
    expect(readAuthMount(scope('corp'), await readAuthTable(client(baseUrl()), ''), 'ldap', live)).toBe('enabled');
    expect(live.resources).toEqual([{ address: expect.anything(), resourceType: 'auth.mount', attrs: { type: 'ldap' } }]);
    expect(live.resources[0]!.address.toString()).toBe('east:sys/auth/corp');
    expect(live.observed).toEqual({ 'east:sys/auth/corp': { type: 'ldap' } });
  });

  test('no entry is absent, observed as missing', async () => {
    const live = empty();
    expect(readAuthMount(scope('userpass'), await readAuthTable(client(baseUrl()), ''), 'userpass', live)).toBe('absent');
    expect(live).toEqual({ resources: [], observed: { 'east:sys/auth/userpass': null }, notes: [] });
    expect(readAuthMount(scope('corp'), null, 'userpass', live)).toBe('absent');
  });

  test('a method of another type at the mount is refused, naming both types', async () => {
    const table = await readAuthTable(client(baseUrl()), 'team-a');
    expect(() => readAuthMount(scope('corp', 'team-a'), table, 'userpass', empty())).toThrow(
      'east:team-a/sys/auth/corp: auth/corp is a "ldap" method, not userpass; choose another mount',
    );
  });
});

describe('forEachDesiredAuthMount', () => {
  test("each desired mount with its namespace's sys/auth table, read once per cluster and namespace", async () => {
    const desired: DesiredState = {
      resources: [scope('corp'), scope('userpass'), scope('corp', 'team-a'), scope('b-side')].map((s) => desiredAuthMount(s, 'userpass')),
      collections: [],
    };
    const seen: Array<[string, string[]]> = [];
    const { recorder } = emulator();
    recorder.requests.length = 0;
    const east = client(recorder.baseUrl);
    await forEachDesiredAuthMount(desired, { get: () => east }, async (s, table, c) => {
      expect(c).toBe(east);
      seen.push([`${s.namespace}|${s.mount.text}`, Object.keys(table ?? {}).filter((k) => k.endsWith('/')).sort()]);
    });
    expect(seen.sort()).toEqual([
      ['team-a|corp', ['corp/', 'token/']],
      ['|b-side', ['b-side/', 'corp/', 'token/']],
      ['|corp', ['b-side/', 'corp/', 'token/']],
      ['|userpass', ['b-side/', 'corp/', 'token/']],
    ]);
    expect(recorder.requests.map((r) => `${r.method} ${r.target}`).sort()).toEqual(['GET /v1/sys/auth', 'GET /v1/team-a/sys/auth']);
  });
});

describe('authMountsOfType', () => {
  test("the namespace's mounts of one type, sorted, with the table they came from", async () => {
    const east = client(baseUrl());
    const root = await authMountsOfType(east, 'east', '', 'ldap');
    expect(root.scopes).toEqual([scope('b-side'), scope('corp')]);
    expect((root.authTable['corp/'] as JsonObject)['type']).toBe('ldap');
    expect((await authMountsOfType(east, 'east', 'team-a', 'ldap')).scopes).toEqual([scope('corp', 'team-a')]);
    expect((await authMountsOfType(east, 'east', '', 'userpass')).scopes).toEqual([]);
  });
});
