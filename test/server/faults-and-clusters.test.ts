import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { apiClient, enableLdap, startTestServer, type ApiClient } from './helpers.js';

let server: Awaited<ReturnType<typeof startTestServer>>;
let east: ApiClient;
let west: ApiClient;

beforeAll(async () => {
  server = await startTestServer({ clusters: ['east', 'west'] });
  east = apiClient(server.clusters[0]!);
  west = apiClient(server.clusters[1]!);
  await enableLdap(east);
  await enableLdap(west);
});
afterAll(() => server.close());
beforeEach(() => server.clearFaults());

describe('several clusters', () => {
  it('gives each its own port, base URL, root token and cluster id', async () => {
    const [a, b] = server.clusters;
    expect(a!.name).toBe('east');
    expect(b!.name).toBe('west');
    expect(a!.port).not.toBe(b!.port);
    expect(a!.baseUrl).toBe(`http://127.0.0.1:${a!.port}/v1`);
    expect(a!.rootToken).not.toBe(b!.rootToken);
    const [ha, hb] = await Promise.all([east.get('sys/health'), west.get('sys/health')]);
    expect(ha.body.cluster_name).toBe('east');
    expect(hb.body.cluster_name).toBe('west');
    expect(ha.body.cluster_id).not.toBe(hb.body.cluster_id);
  });

  it('keeps their state apart, root tokens included', async () => {
    await east.post('auth/ldap/groups/only-east', { policies: 'e' });
    expect((await west.get('auth/ldap/groups/only-east')).status).toBe(404);
    const crossed = apiClient(server.clusters[1]!, server.clusters[0]!.rootToken);
    expect((await crossed.get('sys/auth')).status).toBe(403);
  });

  it('uses consecutive ports from a fixed first port, and one fixed root token when given', async () => {
    // Three consecutive free ports: below the kernel's ephemeral range (where every other
    // test's port 0 lands, now that files run in parallel), and another try if one is taken.
    let fixed: Awaited<ReturnType<typeof startTestServer>> | undefined;
    let free = 0;
    for (let attempt = 0; fixed === undefined; attempt++) {
      free = 20_000 + Math.floor(Math.random() * 10_000);
      try {
        fixed = await startTestServer({ clusters: ['a', 'b', 'c'], port: free, rootToken: 'same' });
      } catch (err) {
        if ((err as { code?: string }).code !== 'EADDRINUSE' || attempt >= 9) throw err;
      }
    }
    try {
      expect(fixed.clusters.map((c) => c.port)).toEqual([free, free + 1, free + 2]);
      expect(fixed.clusters.map((c) => c.rootToken)).toEqual(['same', 'same', 'same']);
    } finally {
      await fixed.close();
    }
  });

  it('refuses invalid or repeated cluster names', async () => {
    await expect(startTestServer({ clusters: ['a', 'a'] })).rejects.toThrow(/named twice/);
    await expect(startTestServer({ clusters: ['bad name'] })).rejects.toThrow(/invalid cluster name/);
  });
});

describe('fault injection', () => {
  it('fails the matching request with the status and errors, once by default', async () => {
    server.injectFault({ path: /^auth\/ldap\/groups\//, method: 'POST', status: 503, errors: ['overloaded'] });
    expect(await east.post('auth/ldap/groups/g1', { policies: 'p' })).toEqual({ status: 503, body: { errors: ['overloaded'] } });
    expect((await east.get('auth/ldap/groups/g1')).status).toBe(404); // not served: nothing written
    expect((await east.post('auth/ldap/groups/g1', { policies: 'p' })).status).toBe(204);
  });

  it('skips the first matches and fails a number of times', async () => {
    server.injectFault({ path: /groups\/s/, status: 500, skip: 2, times: 2 });
    const statuses = [];
    for (let i = 0; i < 5; i++) statuses.push((await east.post(`auth/ldap/groups/s${i}`, {})).status);
    expect(statuses).toEqual([204, 204, 500, 500, 204]);
  });

  it('matches by cluster and by LIST in either form', async () => {
    server.injectFault({ cluster: 'west', method: 'LIST', path: /^auth\/ldap\/groups$/, status: 502, times: 2 });
    expect((await east.list('auth/ldap/groups')).status).toBe(200);
    expect((await west.list('auth/ldap/groups')).status).toBe(502);
    await west.post('auth/ldap/groups/w', {});
    expect((await west.list('auth/ldap/groups')).status).toBe(502);
    expect((await west.list('auth/ldap/groups')).status).toBe(200);
  });

  it('applies before the token check, and clears', async () => {
    server.injectFault({ path: /.*/, status: 500, times: Infinity, errors: [] });
    expect((await apiClient(server.clusters[0]!, null).get('sys/health')).status).toBe(500);
    server.clearFaults();
    expect((await east.get('sys/health')).status).toBe(200);
  });
});
