import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { apiClient, createNamespaces, enableLdap, startTestServer, type ApiClient } from '../helpers.js';

/**
 * The login route around the LDAP algorithm: the CIDR gate, and the token it issues. The
 * directory part (ldapLogin) is replaced by a fake here; it has its own tests against slapd.
 */
const ldapLogin = vi.hoisted(() => vi.fn());
vi.mock('../../../src/server/ldap/login.js', () => ({ ldapLogin }));

let server: Awaited<ReturnType<typeof startTestServer>>;
let api: ApiClient;
let mount = 0;
let path: string;

beforeAll(async () => {
  server = await startTestServer();
  api = apiClient(server.clusters[0]!);
});
afterAll(() => server.close());
beforeEach(async () => {
  mount++;
  path = `ldap${mount}`;
  await enableLdap(api, path);
  ldapLogin.mockReset();
  ldapLogin.mockResolvedValue({ ok: true, userDn: 'uid=alice,ou=people', alias: 'alice', ldapGroups: ['Staff'] });
});

const login = (user = 'Alice', password = 'pw') => apiClient(server.clusters[0]!, null).post(`auth/${path}/login/${user}`, { password });

describe('login gate', () => {
  it('refuses a login from outside token_bound_cidrs before contacting the directory', async () => {
    await api.post(`auth/${path}/config`, { token_bound_cidrs: '10.0.0.0/8' });
    expect(await login()).toEqual({ status: 403, body: { errors: ['permission denied'] } });
    expect(ldapLogin).not.toHaveBeenCalled();
  });

  it('passes the stored config (secrets included), the username as given and the password', async () => {
    await api.post(`auth/${path}/config`, { bindpass: 'sekret', url: 'ldap://dir' });
    await login('Alice', 'pw');
    expect(ldapLogin).toHaveBeenCalledWith(expect.objectContaining({ bindpass: 'sekret', url: 'ldap://dir' }), 'Alice', 'pw');
  });

  it("answers the algorithm's failure as is", async () => {
    ldapLogin.mockResolvedValue({ ok: false, status: 400, message: 'ldap operation failed: failed to bind as user' });
    expect(await login()).toEqual({ status: 400, body: { errors: ['ldap operation failed: failed to bind as user'] } });
  });
});

describe('issued token', () => {
  it("answers the service's login shape and a token that works", async () => {
    await api.post(`auth/${path}/groups/staff`, { policies: 'staff-pol' });
    await api.post(`auth/${path}/users/alice`, { policies: 'own', groups: 'extra' });
    await api.post(`auth/${path}/groups/extra`, { policies: 'extra-pol' });
    await api.post(`auth/${path}/config`, { token_policies: 'base' });
    const res = await login();
    expect(res.status).toBe(200);
    const { auth } = res.body;
    expect(res.body.data).toEqual({}); // backend.go Login's response carries an empty Data map
    expect(auth).toMatchObject({
      policies: ['base', 'default', 'extra-pol', 'own', 'staff-pol'],
      token_policies: ['base', 'default', 'extra-pol', 'own', 'staff-pol'],
      metadata: { username: 'Alice' },
      lease_duration: 2764800,
      renewable: true,
      token_type: 'service',
      orphan: true,
      mfa_requirement: null,
      num_uses: 0,
    });
    expect(auth).not.toHaveProperty('identity_policies'); // #14: omitted when empty (sdk/logical HTTPAuth)
    expect(auth.client_token).toMatch(/^hvs\./);
    expect(auth.accessor).toMatch(/^[A-Za-z0-9]{24}$/);

    const self = await apiClient(server.clusters[0]!, auth.client_token).get('auth/token/lookup-self');
    expect(self.body.data).toMatchObject({
      display_name: `${path}-Alice`,
      path: `auth/${path}/login/Alice`,
      meta: { username: 'Alice' },
      policies: auth.policies,
      entity_id: auth.entity_id,
      accessor: auth.accessor,
    });
    // A login token is not root: administrative paths are refused.
    expect((await apiClient(server.clusters[0]!, auth.client_token).get(`auth/${path}/config`)).status).toBe(403);
  });

  it('gives one user the same entity on every login', async () => {
    const first = (await login()).body.auth.entity_id;
    expect(first).toMatch(/^[0-9a-f-]{36}$/);
    expect((await login()).body.auth.entity_id).toBe(first);
  });

  it('shapes the lease by token_ttl, token_period and token_explicit_max_ttl', async () => {
    await api.post(`auth/${path}/config`, { token_ttl: '1h', token_max_ttl: '2h' });
    expect((await login()).body.auth.lease_duration).toBe(3600);
    await api.post(`auth/${path}/config`, { token_period: '30m' });
    expect((await login()).body.auth.lease_duration).toBe(1800);
    await api.post(`auth/${path}/config`, { token_period: 0, token_ttl: 0, token_max_ttl: 0, token_explicit_max_ttl: '10m' });
    const capped = await login();
    expect(capped.body.auth.lease_duration).toBe(600);
    expect(capped.body.warnings[0]).toMatch(/TTL value is capped accordingly/);
  });

  it('issues batch tokens and limited-use tokens as configured', async () => {
    await api.post(`auth/${path}/config`, { token_type: 'batch' });
    const batch = (await login()).body.auth;
    expect(batch).toMatchObject({ token_type: 'batch', renewable: false });
    expect(batch.client_token).toMatch(/^hvb\./);

    await api.post(`auth/${path}/config`, { token_type: 'service', token_num_uses: 1 });
    const limited = (await login()).body.auth;
    expect(limited.num_uses).toBe(1);
    const self = apiClient(server.clusters[0]!, limited.client_token);
    expect((await self.get('auth/token/lookup-self')).status).toBe(200);
    expect((await self.get('auth/token/lookup-self')).status).toBe(403);
  });

  it('binds the token to token_bound_cidrs', async () => {
    await api.post(`auth/${path}/config`, { token_bound_cidrs: '127.0.0.0/8' });
    const { auth } = (await login()).body;
    const self = await apiClient(server.clusters[0]!, auth.client_token).get('auth/token/lookup-self');
    expect(self.body.data.bound_cidrs).toEqual(['127.0.0.0/8']);
  });

  it('revokes the tokens of a method when it is disabled', async () => {
    const { auth } = (await login()).body;
    const self = apiClient(server.clusters[0]!, auth.client_token);
    expect((await self.get('auth/token/lookup-self')).status).toBe(200);
    expect((await api.delete(`sys/auth/${path}`)).status).toBe(204);
    expect((await self.get('auth/token/lookup-self')).status).toBe(403);
  });

  it("disabling a namespace's method of the same path leaves the root's tokens alone, and back", async () => {
    const enableIn = async (namespace: string): Promise<void> => {
      expect((await api.post(`${namespace}sys/auth/${path}`, { type: 'ldap' })).status).toBe(204);
    };
    const loginIn = async (namespace: string): Promise<string> => {
      const res = await apiClient(server.clusters[0]!, null).post(`${namespace}auth/${path}/login/alice`, { password: 'pw' });
      expect(res.status).toBe(200);
      return res.body.auth.client_token as string;
    };
    // A token looks itself up in the namespace that issued it: its policies' paths are that
    // namespace's (vault/policy.go puts the namespace path before each rule's).
    const alive = async (token: string, namespace = ''): Promise<number> =>
      (await apiClient(server.clusters[0]!, token).get(`${namespace}auth/token/lookup-self`)).status;

    await createNamespaces(server.clusters[0]!, 'team-a');
    await enableIn('team-a/');
    const rootToken = await loginIn('');
    const nsToken = await loginIn('team-a/');
    expect((await api.delete(`team-a/sys/auth/${path}`)).status).toBe(204);
    expect(await alive(nsToken, 'team-a/')).toBe(403);
    expect(await alive(rootToken)).toBe(200);

    await enableIn('team-a/');
    const nsAgain = await loginIn('team-a/');
    expect((await api.delete(`sys/auth/${path}`)).status).toBe(204);
    expect(await alive(rootToken)).toBe(403);
    expect(await alive(nsAgain, 'team-a/')).toBe(200);
  });

  it('refuses a login whose policies would include root', async () => {
    await api.post(`auth/${path}/config`, { token_policies: 'root' });
    const res = await login();
    expect(res.status).toBe(400);
  });
});
