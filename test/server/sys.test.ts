import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiClient, startTestServer, type ApiClient } from './helpers.js';

let server: Awaited<ReturnType<typeof startTestServer>>;
let api: ApiClient;

beforeAll(async () => {
  server = await startTestServer();
  api = apiClient(server.clusters[0]!);
});
afterAll(() => server.close());

describe('sys/auth', () => {
  it('lists the built-in token method', async () => {
    const res = await api.get('sys/auth');
    expect(res.status).toBe(200);
    expect(Object.keys(res.body.data)).toEqual(['token/']);
    expect(res.body.data['token/']).toMatchObject({ type: 'token', local: false, seal_wrap: false });
    expect(res.body['token/']).toEqual(res.body.data['token/']); // legacy top-level copy, as the service
  });

  it('enables, lists, reads and disables an LDAP method', async () => {
    expect((await api.post('sys/auth/corp/ldap', { type: 'ldap', description: 'Corp directory' })).status).toBe(204);
    const listed = await api.get('sys/auth');
    const entry = listed.body.data['corp/ldap/'];
    // options: TypeKVPairs, whose zero value is an empty map (vault/logical_system.go handleEnableAuth).
    expect(entry).toMatchObject({ type: 'ldap', description: 'Corp directory', local: false, seal_wrap: false, options: {} });
    expect(entry.accessor).toMatch(/^auth_ldap_[0-9a-f]{8}$/);
    expect(entry.config).toMatchObject({ default_lease_ttl: 0, max_lease_ttl: 0 });
    expect(entry.config).not.toHaveProperty('allowed_managed_keys'); // #14: only when set (vault/logical_system.go mountInfo)
    expect((await api.get('sys/auth/corp/ldap')).body.data.type).toBe('ldap');

    // The mount serves the LDAP API at its (multi-segment) path.
    expect((await api.post('auth/corp/ldap/groups/g', { policies: 'p' })).status).toBe(204);
    expect((await api.get('auth/corp/ldap/groups/g')).body.data.policies).toEqual(['p']);

    expect((await api.delete('sys/auth/corp/ldap')).status).toBe(204);
    expect(Object.keys((await api.get('sys/auth')).body.data)).not.toContain('corp/ldap/');
    expect((await api.get('auth/corp/ldap/groups/g')).status).toBe(404);
  });

  it('refuses a path in use, an unknown type and a missing type', async () => {
    expect((await api.post('sys/auth/ldap', { type: 'ldap' })).status).toBe(204);
    const again = await api.post('sys/auth/ldap', { type: 'ldap' });
    // vault/auth.go enableCredentialInternal's CodedError(409) goes out as handleError's error
    // response: a 400 (sdk/logical/response_util.go RespondErrorCommon).
    expect(again.status).toBe(400);
    expect(again.body.errors[0]).toMatch(/path is already in use at ldap\//);
    expect((await api.post('sys/auth/ldap/nested', { type: 'ldap' })).status).toBe(400);
    expect((await api.post('sys/auth/other', { type: 'no-such-method' })).status).toBe(400);
    expect((await api.post('sys/auth/other', {})).status).toBe(400);
    expect((await api.post('sys/auth/token2', { type: 'token' })).status).toBe(400);
  });

  it('deletes the data of a disabled method: re-enabling starts empty', async () => {
    await api.post('sys/auth/again', { type: 'ldap' });
    await api.post('auth/again/users/alice', { policies: 'p' });
    await api.post('auth/again/config', { url: 'ldap://dir.example.com' });
    await api.delete('sys/auth/again');
    await api.post('sys/auth/again', { type: 'ldap' });
    expect((await api.get('auth/again/users/alice')).status).toBe(404);
    expect((await api.get('auth/again/config')).body.data.url).toBe('ldap://127.0.0.1');
  });

  it('accepts disabling a path that is not enabled, refuses the token method', async () => {
    expect((await api.delete('sys/auth/never-enabled')).status).toBe(204);
    expect((await api.delete('sys/auth/token')).status).toBe(400);
  });
});

describe('sys/mounts', () => {
  it('#14: lists the default mounts, without allowed_managed_keys while unset', async () => {
    const res = await api.get('sys/mounts');
    expect(Object.keys(res.body.data).sort()).toEqual(['cubbyhole/', 'identity/', 'secret/', 'sys/']);
    for (const mount of Object.values<any>(res.body.data)) expect(mount.config).not.toHaveProperty('allowed_managed_keys');
  });

  it('mounts an engine and tunes allowed_managed_keys as an array or a comma string', async () => {
    expect((await api.post('sys/mounts/pki', { type: 'pki' })).status).toBe(204);
    expect((await api.post('sys/mounts/pki/tune', { allowed_managed_keys: ['hsm-a', 'kms-b'] })).status).toBe(204);
    let tune = await api.get('sys/mounts/pki/tune');
    expect(tune.status).toBe(200);
    expect(tune.body.data).toMatchObject({ allowed_managed_keys: ['hsm-a', 'kms-b'], default_lease_ttl: 2764800, max_lease_ttl: 2764800 });
    expect((await api.get('sys/mounts')).body.data['pki/'].config.allowed_managed_keys).toEqual(['hsm-a', 'kms-b']);

    await api.post('sys/mounts/pki/tune', { allowed_managed_keys: ' only-one , second ' });
    tune = await api.get('sys/mounts/pki/tune');
    expect(tune.body.data.allowed_managed_keys).toEqual(['only-one', 'second']);

    await api.post('sys/mounts/pki/tune', { default_lease_ttl: '1h' });
    tune = await api.get('sys/mounts/pki/tune');
    expect(tune.body.data).toMatchObject({ default_lease_ttl: 3600, allowed_managed_keys: ['only-one', 'second'] });

    await api.post('sys/mounts/pki/tune', { allowed_managed_keys: [] });
    expect((await api.get('sys/mounts/pki/tune')).body.data).not.toHaveProperty('allowed_managed_keys');
  });

  it('takes allowed_managed_keys at mount time and tunes auth mounts through sys/mounts/auth/...', async () => {
    await api.post('sys/mounts/transit', { type: 'transit', config: { allowed_managed_keys: 'k1' } });
    expect((await api.get('sys/mounts/transit/tune')).body.data.allowed_managed_keys).toEqual(['k1']);
    await api.post('sys/auth/tuned', { type: 'ldap' });
    expect((await api.post('sys/mounts/auth/tuned/tune', { max_lease_ttl: '2h' })).status).toBe(204);
    expect((await api.get('sys/auth/tuned/tune')).body.data.max_lease_ttl).toBe(7200);
  });

  it('refuses tuning a missing mount, a taken path and unmounting sys/', async () => {
    expect((await api.post('sys/mounts/nothing/tune', { allowed_managed_keys: 'x' })).status).toBe(400);
    // vault/mount.go mountInternal: CodedError(409), lost to handleError's error response (400).
    expect((await api.post('sys/mounts/secret', { type: 'kv' })).status).toBe(400);
    expect((await api.delete('sys/mounts/sys')).status).toBe(400);
  });

  it('unmounts an engine', async () => {
    await api.post('sys/mounts/gone', { type: 'kv' });
    expect((await api.delete('sys/mounts/gone')).status).toBe(204);
    expect(Object.keys((await api.get('sys/mounts')).body.data)).not.toContain('gone/');
  });
});
