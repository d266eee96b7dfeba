import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { calculateTokenTtl } from '../../src/server/auth/token-ttl.js';
import { ManualClock } from '../support/manual-clock.js';
import { apiClient, enableLdap, startTestServer, type ApiClient } from './helpers.js';

let server: Awaited<ReturnType<typeof startTestServer>>;
let api: ApiClient;
/** The server's time: moves only when a test advances it. */
const clock = new ManualClock();

beforeAll(async () => {
  server = await startTestServer({ rootToken: 'fixed-root', clock });
  api = apiClient(server.clusters[0]!);
  await enableLdap(api);
});
afterAll(() => server.close());

const as = (token: string) => apiClient(server.clusters[0]!, token);

describe('authorization', () => {
  // A valid token the ACL refuses: the error as vault/request_handling.go (CheckToken) gathers it.
  it('lets only root-policy tokens call administrative paths', async () => {
    const token = await server.mintToken({ policies: ['default', 'admin'] });
    for (const path of ['sys/auth', 'sys/mounts', 'auth/ldap/config']) {
      expect(await as(token).get(path)).toEqual({ status: 403, body: { errors: ['1 error occurred:\n\t* permission denied\n\n'] } });
    }
    expect(await as('hvs.unknown').get('sys/auth')).toEqual({ status: 403, body: { errors: ['permission denied'] } });
    expect((await as(token).post('sys/auth/x', { type: 'ldap' })).status).toBe(403);
    expect((await as(token).list('auth/ldap/users')).status).toBe(403);
    const rootPolicy = await server.mintToken({ policies: ['root'] });
    expect((await as(rootPolicy).get('sys/auth')).status).toBe(200);
  });

  it('lets any valid token look itself up; health and login need none', async () => {
    const token = await server.mintToken({ policies: ['default'] });
    expect((await as(token).get('auth/token/lookup-self')).status).toBe(200);
    expect((await apiClient(server.clusters[0]!, null).get('auth/token/lookup-self')).status).toBe(403);
    expect((await apiClient(server.clusters[0]!, null).get('sys/health')).status).toBe(200);
  });
});

describe('lookup-self', () => {
  it('describes the root token', async () => {
    const res = await api.get('auth/token/lookup-self');
    expect(res.body.data).toMatchObject({
      id: 'fixed-root',
      policies: ['root'],
      display_name: 'root',
      path: 'auth/token/root',
      ttl: 0,
      expire_time: null,
      orphan: true,
      num_uses: 0,
      type: 'service',
    });
  });

  it("answers the service's lookup shape", async () => {
    const token = await server.mintToken({ policies: ['default', 'dev'], ttl: 3600, meta: { username: 'alice' }, displayName: 'ldap-alice' });
    const { data } = (await as(token).get('auth/token/lookup-self')).body;
    expect(Object.keys(data).sort()).toEqual(
      [
        'accessor',
        'creation_time',
        'creation_ttl',
        'display_name',
        'entity_id',
        'expire_time',
        'explicit_max_ttl',
        'id',
        'issue_time',
        'meta',
        'num_uses',
        'orphan',
        'path',
        'policies',
        'renewable',
        'ttl',
        'type',
      ].sort(),
    );
    expect(data).toMatchObject({ id: token, creation_ttl: 3600, display_name: 'ldap-alice', meta: { username: 'alice' }, type: 'service', renewable: true });
    expect(data.ttl).toBe(3600);
    expect(Date.parse(data.expire_time)).toBe(clock.now() + 3_600_000);
    expect(token).toMatch(/^hvs\./);
  });

  it('shows period and bound_cidrs when set; batch tokens have their prefix and no accessor', async () => {
    const periodic = await server.mintToken({ policies: ['default'], period: 600, ttl: 600, boundCidrs: ['127.0.0.1/32'] });
    const { data } = (await as(periodic).get('auth/token/lookup-self')).body;
    expect(data).toMatchObject({ period: 600, bound_cidrs: ['127.0.0.1/32'] });
    const batch = await server.mintToken({ policies: ['default'], type: 'batch' });
    expect(batch).toMatch(/^hvb\./);
    expect((await as(batch).get('auth/token/lookup-self')).body.data).toMatchObject({ type: 'batch', accessor: '', renewable: false });
  });
});

describe('token limits', () => {
  it('counts uses and revokes the token when they are used up', async () => {
    const token = await server.mintToken({ policies: ['default'], numUses: 2 });
    const first = await as(token).get('auth/token/lookup-self');
    expect(first.body.data.num_uses).toBe(1);
    expect((await as(token).get('auth/token/lookup-self')).status).toBe(200);
    expect((await as(token).get('auth/token/lookup-self')).status).toBe(403);
  });

  it('refuses a token used from outside its bound CIDRs', async () => {
    const token = await server.mintToken({ policies: ['root'], boundCidrs: ['10.0.0.0/8'] });
    expect(await as(token).get('sys/auth')).toEqual({ status: 403, body: { errors: ['permission denied'] } });
    const local = await server.mintToken({ policies: ['root'], boundCidrs: ['10.0.0.0/8', '127.0.0.1'] });
    expect((await as(local).get('sys/auth')).status).toBe(200);
  });

  it('refuses an expired token', async () => {
    const token = await server.mintToken({ policies: ['default'], ttl: 1 });
    await clock.advance(999);
    expect((await as(token).get('auth/token/lookup-self')).status).toBe(200);
    await clock.advance(1);
    expect((await as(token).get('auth/token/lookup-self')).status).toBe(403);
  });
});

describe('calculateTokenTtl', () => {
  it('uses the system default 768h when no TTL is set', () => {
    expect(calculateTokenTtl({ ttl: 0, maxTtl: 0, explicitMaxTtl: 0, period: 0 })).toEqual({ ttl: 2764800, warnings: [] });
  });
  it('uses token_ttl, capped by token_max_ttl', () => {
    expect(calculateTokenTtl({ ttl: 3600, maxTtl: 0, explicitMaxTtl: 0, period: 0 }).ttl).toBe(3600);
    expect(calculateTokenTtl({ ttl: 0, maxTtl: 1800, explicitMaxTtl: 0, period: 0 }).ttl).toBe(1800);
  });
  it('caps by the explicit max with the service warning', () => {
    const { ttl, warnings } = calculateTokenTtl({ ttl: 7200, maxTtl: 0, explicitMaxTtl: 3600, period: 0 });
    expect(ttl).toBe(3600);
    expect(warnings).toEqual(['TTL of "2h0m0s" exceeded the effective max_ttl of "1h0m0s"; TTL value is capped accordingly']);
  });
  it('makes the period the lease, capped by the explicit max', () => {
    expect(calculateTokenTtl({ ttl: 60, maxTtl: 120, explicitMaxTtl: 0, period: 600 }).ttl).toBe(120);
    expect(calculateTokenTtl({ ttl: 60, maxTtl: 0, explicitMaxTtl: 0, period: 600 }).ttl).toBe(600);
    expect(calculateTokenTtl({ ttl: 0, maxTtl: 0, explicitMaxTtl: 300, period: 600 }).ttl).toBe(300);
  });
  it("uses the mount's tuned lease TTLs instead of the system's", () => {
    expect(calculateTokenTtl({ ttl: 0, maxTtl: 0, explicitMaxTtl: 0, period: 0, mountDefaultTtl: 60, mountMaxTtl: 120 }).ttl).toBe(60);
    expect(calculateTokenTtl({ ttl: 600, maxTtl: 0, explicitMaxTtl: 0, period: 0, mountMaxTtl: 120 }).ttl).toBe(120);
  });
});
