import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiClient, enableLdap, startTestServer, type ApiClient } from '../helpers.js';

let server: Awaited<ReturnType<typeof startTestServer>>;
let api: ApiClient;

beforeAll(async () => {
  server = await startTestServer();
  api = apiClient(server.clusters[0]!);
  await enableLdap(api, 'ldap');
  await enableLdap(api, 'sensitive');
  await api.post('auth/sensitive/config', { case_sensitive_names: true });
});
afterAll(() => server.close());

describe('LDAP groups', () => {
  it('stores policies normalised and reads them as an array', async () => {
    expect((await api.post('auth/ldap/groups/admins', { policies: ' Admin ,ops,admin, ' })).status).toBe(204);
    expect((await api.get('auth/ldap/groups/admins')).body.data).toEqual({ policies: ['admin', 'ops'] });
    await api.post('auth/ldap/groups/admins', { policies: ['Z', 'a'] });
    expect((await api.get('auth/ldap/groups/admins')).body.data).toEqual({ policies: ['a', 'z'] });
  });

  it('lower-cases names on write and read when case-insensitive', async () => {
    await api.post('auth/ldap/groups/Engineers', { policies: 'eng' });
    expect((await api.get('auth/ldap/groups/ENGINEERS')).body.data.policies).toEqual(['eng']);
    expect((await api.list('auth/ldap/groups')).body.data.keys).toContain('engineers');
    expect((await api.list('auth/ldap/groups')).body.data.keys).not.toContain('Engineers');
  });

  it('keeps the case of names when case_sensitive_names', async () => {
    await api.post('auth/sensitive/groups/Engineers', { policies: 'eng' });
    expect((await api.get('auth/sensitive/groups/engineers')).status).toBe(404);
    expect((await api.get('auth/sensitive/groups/Engineers')).status).toBe(200);
    expect((await api.list('auth/sensitive/groups')).body.data.keys).toEqual(['Engineers']);
  });

  it('lists sorted names, 404 when missing, deletes (also what does not exist)', async () => {
    await api.post('auth/ldap/groups/beta', {});
    const keys = (await api.list('auth/ldap/groups')).body.data.keys;
    expect(keys).toEqual([...keys].sort());
    expect((await api.get('auth/ldap/groups/missing')).status).toBe(404);
    expect((await api.delete('auth/ldap/groups/beta')).status).toBe(204);
    expect((await api.get('auth/ldap/groups/beta')).status).toBe(404);
    expect((await api.delete('auth/ldap/groups/beta')).status).toBe(204);
  });

  it('answers 404 to a LIST of a mount without groups', async () => {
    await enableLdap(api, 'empty');
    expect(await api.list('auth/empty/groups')).toEqual({ status: 404, body: { errors: [] } });
    expect(await api.list('auth/empty/users')).toEqual({ status: 404, body: { errors: [] } });
  });
});

describe('LDAP users', () => {
  it('reads groups as a comma string and policies as an array', async () => {
    await api.post('auth/ldap/users/alice', { policies: 'Dev,ops', groups: ' admins , Eng,admins' });
    expect((await api.get('auth/ldap/users/alice')).body.data).toEqual({ groups: 'admins,eng', policies: ['dev', 'ops'] });
  });

  it('takes groups as an array too, and empty values', async () => {
    await api.post('auth/ldap/users/bob', { groups: ['b', 'a'] });
    expect((await api.get('auth/ldap/users/bob')).body.data).toEqual({ groups: 'a,b', policies: [] });
    await api.post('auth/ldap/users/bob', {});
    expect((await api.get('auth/ldap/users/bob')).body.data).toEqual({ groups: '', policies: [] });
  });

  it('lower-cases names and group names unless case-sensitive', async () => {
    await api.post('auth/ldap/users/Carol', { groups: 'Admins,ENG' });
    expect((await api.get('auth/ldap/users/CAROL')).body.data.groups).toBe('admins,eng');
    await api.post('auth/sensitive/users/Carol', { groups: 'Admins,ENG,Admins', policies: 'P' });
    expect((await api.get('auth/sensitive/users/Carol')).body.data).toEqual({ groups: 'Admins,ENG', policies: ['p'] });
    expect((await api.get('auth/sensitive/users/carol')).status).toBe(404);
  });

  it('lists, reads 404 when missing, deletes', async () => {
    expect((await api.list('auth/ldap/users')).body.data.keys).toEqual(['alice', 'bob', 'carol']);
    expect((await api.get('auth/ldap/users/nobody')).status).toBe(404);
    expect((await api.delete('auth/ldap/users/bob')).status).toBe(204);
    expect((await api.delete('auth/ldap/users/bob')).status).toBe(204);
    expect((await api.list('auth/ldap/users')).body.data.keys).toEqual(['alice', 'carol']);
  });

  it('takes a write with unknown members without a word: pathUserWrite answers nothing for the warning to ride on (sdk/framework/backend.go HandleRequest)', async () => {
    const res = await api.post('auth/ldap/users/dave', { policies: 'p', groupz: 'typo' });
    expect(res.status).toBe(204);
    expect((await api.get('auth/ldap/users/dave')).body.data.policies).toEqual(['p']);
  });

  it('keeps every mount separate', async () => {
    await enableLdap(api, 'other');
    await api.post('auth/other/users/alice', { policies: 'elsewhere' });
    expect((await api.get('auth/ldap/users/alice')).body.data.policies).toEqual(['dev', 'ops']);
    expect((await api.get('auth/other/users/alice')).body.data.policies).toEqual(['elsewhere']);
  });
});
