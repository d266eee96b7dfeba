import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ManualClock } from '../support/manual-clock.js';
import { apiClient, enableLdap, RawConnection, startTestServer, type ApiClient } from './helpers.js';

let server: Awaited<ReturnType<typeof startTestServer>>;
let api: ApiClient;
let port: number;
let root: string;

beforeAll(async () => {
  server = await startTestServer();
  const cluster = server.clusters[0]!;
  api = apiClient(cluster);
  port = cluster.port;
  root = cluster.rootToken;
  await enableLdap(api);
});
afterAll(() => server.close());

describe('envelope and status codes', () => {
  it('answers reads in the envelope', async () => {
    const res = await api.get('auth/ldap/config');
    expect(res.status).toBe(200);
    expect(Object.keys(res.body).sort()).toEqual(
      ['auth', 'data', 'lease_duration', 'lease_id', 'renewable', 'request_id', 'warnings', 'wrap_info'].sort(),
    );
    expect(res.body).toMatchObject({ lease_id: '', renewable: false, lease_duration: 0, wrap_info: null, warnings: null, auth: null });
    expect(res.body.request_id).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('answers writes without a body with 204', async () => {
    const res = await api.post('auth/ldap/groups/admins', { policies: 'admin' });
    expect(res).toEqual({ status: 204, body: undefined });
  });

  it('answers 404 with empty errors for a missing object and for an empty LIST', async () => {
    expect(await api.get('auth/ldap/users/nobody')).toEqual({ status: 404, body: { errors: [] } });
    expect(await api.list('auth/ldap/users')).toEqual({ status: 404, body: { errors: [] } });
  });

  it('answers 404 for an unknown path and for paths outside /v1', async () => {
    expect((await api.get('auth/ldap/nothing-here')).status).toBe(404);
    expect((await api.get('sys/nothing')).status).toBe(404);
    const res = await fetch(`http://127.0.0.1:${port}/other`, { headers: { 'X-Vault-Token': root } });
    expect(res.status).toBe(404);
  });

  it('answers 405 for an unsupported operation on a known path', async () => {
    const res = await api.delete('auth/ldap/config');
    expect(res.status).toBe(405);
    expect(res.body.errors).toHaveLength(1);
    expect((await api.get('auth/ldap/groups')).status).toBe(405); // groups is LIST-only
    expect((await api.call('PATCH', 'auth/ldap/config', {}, { 'Content-Type': 'application/merge-patch+json' })).status).toBe(405);
  });

  it('refuses a PATCH that is not a merge patch before anything else (http/logical.go buildLogicalRequestNoAuth)', async () => {
    expect(await api.call('PATCH', 'auth/ldap/config', {})).toEqual({
      status: 415,
      body: { errors: ['PATCH requires Content-Type of application/merge-patch+json, provided application/json'] },
    });
    expect(await api.call('PATCH', 'auth/ldap/config', {}, { 'Content-Type': 'application/merge-patch+json; charset=utf-8' })).toMatchObject({ status: 405 });
    expect(await apiClient(server.clusters[0]!, null).call('PATCH', 'sys/namespaces/x', {})).toMatchObject({ status: 415 });
  });

  it('answers 403 permission denied without a token or with an unknown one', async () => {
    const anonymous = apiClient(server.clusters[0]!, null);
    expect(await anonymous.get('auth/ldap/config')).toEqual({ status: 403, body: { errors: ['permission denied'] } });
    const bogus = apiClient(server.clusters[0]!, 'hvs.not-a-token');
    expect(await bogus.get('sys/auth')).toEqual({ status: 403, body: { errors: ['permission denied'] } });
    expect((await anonymous.get('sys/no-such-path')).status).toBe(403);
  });

  it('accepts the token as Authorization: Bearer', async () => {
    const anonymous = apiClient(server.clusters[0]!, null);
    const res = await anonymous.call('GET', 'auth/ldap/config', undefined, { Authorization: `Bearer ${root}` });
    expect(res.status).toBe(200);
  });

  it('answers 400 for a malformed JSON body, and for a body that is not an object', async () => {
    // A literal the JSON limits check lets by (http/json-limits.ts) is the decoder's to refuse (http/handler.go parseJSONRequest).
    const res = await api.post('auth/ldap/groups/x', '{"policies": tru}');
    expect(res.status).toBe(400);
    expect(res.body.errors[0]).toMatch(/^failed to parse JSON input/);
    // A body cut short fails the limits check first: 500 (hashicorp/vault http/util.go wrapJSONLimitsHandler).
    const cut = await api.post('auth/ldap/groups/x', '{"policies": ');
    expect(cut.status).toBe(500);
    expect(cut.body.errors).toEqual(['malformed JSON, unclosed containers']);
    expect((await api.post('auth/ldap/groups/x', '[1,2]')).status).toBe(400);
    expect((await api.get('auth/ldap/groups/x')).status).toBe(404);
  });

  it('treats PUT as POST and an empty body as {}', async () => {
    expect((await api.call('PUT', 'auth/ldap/groups/empty')).status).toBe(204);
    expect((await api.get('auth/ldap/groups/empty')).body.data).toEqual({ policies: [] });
  });

  it('answers health without a token and without the envelope', async () => {
    const res = await apiClient(server.clusters[0]!, null).get('sys/health');
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      initialized: true,
      sealed: false,
      standby: false,
      performance_standby: false,
      replication_dr_mode: 'disabled',
      cluster_name: 'default',
    });
    expect(typeof res.body.server_time_utc).toBe('number');
    expect(typeof res.body.version).toBe('string');
    expect(res.body.cluster_id).toMatch(/^[0-9a-f-]{36}$/);
    expect(res.body.request_id).toBeUndefined();
    const head = await fetch(`http://127.0.0.1:${port}/v1/sys/health`, { method: 'HEAD' });
    expect(head.status).toBe(200);
  });

  it("tells the time of the cluster's clock (startServer({ clock }))", async () => {
    const clock = new ManualClock(Date.parse('2031-02-03T04:05:06.789Z'));
    const other = await startTestServer({ clock });
    try {
      const health = async () => (await apiClient(other.clusters[0]!, null).get('sys/health')).body.server_time_utc;
      expect(await health()).toBe(Date.parse('2031-02-03T04:05:06Z') / 1000);
      await clock.advance(60_000);
      expect(await health()).toBe(Date.parse('2031-02-03T04:06:06Z') / 1000);
    } finally {
      await other.close();
    }
  });
});

describe('LIST', () => {
  beforeAll(async () => {
    await api.post('auth/ldap/groups/zeta', { policies: 'z' });
    await api.post('auth/ldap/groups/alpha', { policies: 'a' });
  });

  it('works as GET ?list=true', async () => {
    const res = await api.list('auth/ldap/groups');
    expect(res.status).toBe(200);
    expect(res.body.data.keys).toEqual(['admins', 'alpha', 'empty', 'zeta']);
  });

  it('works as the literal LIST method over a raw socket, with trailing slash too', async () => {
    const conn = await RawConnection.open(port);
    try {
      conn.send(`LIST /v1/auth/ldap/groups HTTP/1.1\r\nHost: x\r\nX-Vault-Token: ${root}\r\n\r\n`);
      const first = await conn.readResponse();
      expect(first.status).toBe(200);
      expect(JSON.parse(first.body).data.keys).toContain('alpha');
      conn.send(`LIST /v1/auth/ldap/groups/ HTTP/1.1\r\nHost: x\r\nX-Vault-Token: ${root}\r\n\r\n`);
      expect(JSON.parse((await conn.readResponse()).body).data.keys).toContain('zeta');
    } finally {
      conn.close();
    }
  });

  it('keeps one connection alive across GET, LIST, POST with a body and LIST again', async () => {
    const conn = await RawConnection.open(port);
    try {
      const h = `Host: x\r\nX-Vault-Token: ${root}\r\n`;
      conn.send(`GET /v1/auth/ldap/groups/alpha HTTP/1.1\r\n${h}\r\n`);
      expect(JSON.parse((await conn.readResponse()).body).data.policies).toEqual(['a']);
      conn.send(`LIST /v1/auth/ldap/groups HTTP/1.1\r\n${h}\r\n`);
      expect((await conn.readResponse()).status).toBe(200);
      // A body that looks like a LIST request line must pass untouched.
      const body = JSON.stringify({ policies: 'p1', note: 'LIST /v1/x HTTP/1.1\r\n\r\n' });
      conn.send(`POST /v1/auth/ldap/groups/keep HTTP/1.1\r\n${h}Content-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`);
      const posted = await conn.readResponse();
      // 204: pathGroupWrite answers nothing, so the framework's warning about `note` has no
      // answer to ride on (sdk/framework/backend.go HandleRequest).
      expect(posted.status).toBe(204);
      conn.send(`LIST /v1/auth/ldap/groups HTTP/1.1\r\n${h}\r\n`);
      expect(JSON.parse((await conn.readResponse()).body).data.keys).toContain('keep');
      expect(conn.isClosed).toBe(false);
    } finally {
      conn.close();
    }
  });

  it('handles pipelined requests and a chunked body on one connection', async () => {
    const conn = await RawConnection.open(port);
    try {
      const h = `Host: x\r\nX-Vault-Token: ${root}\r\n`;
      const json = JSON.stringify({ policies: 'c1,c2' });
      const chunked = `${json.length.toString(16)}\r\n${json}\r\n0\r\n\r\n`;
      conn.send(
        `POST /v1/auth/ldap/groups/chunky HTTP/1.1\r\n${h}Transfer-Encoding: chunked\r\n\r\n${chunked}` +
          `LIST /v1/auth/ldap/groups?foo=bar HTTP/1.1\r\n${h}\r\n`,
      );
      // Node serves pipelined requests concurrently (answers stay in order): check both answers,
      // then the effect of the chunked write.
      expect((await conn.readResponse()).status).toBe(204);
      expect((await conn.readResponse()).status).toBe(200);
      conn.send(`GET /v1/auth/ldap/groups/chunky HTTP/1.1\r\n${h}\r\n`);
      expect(JSON.parse((await conn.readResponse()).body).data.policies).toEqual(['c1', 'c2']);
    } finally {
      conn.close();
    }
  });

  it('sees the client address through the front (bound CIDRs depend on it)', async () => {
    const token = await server.mintToken({ policies: ['default'], boundCidrs: ['127.0.0.0/8'] });
    const res = await apiClient(server.clusters[0]!, token).get('auth/token/lookup-self');
    expect(res.status).toBe(200);
  });
});

describe('robustness', () => {
  it('never logs request bodies', async () => {
    const cluster = server.clusters[0]!;
    const res = await fetch(`${cluster.baseUrl}/auth/ldap/config`, {
      method: 'POST',
      headers: { 'X-Vault-Token': root },
      body: JSON.stringify({ bindpass: 's3cr3t-value', url: 'ldap://x' }),
    });
    expect(res.status).toBe(204);
    expect(server.logs.join('\n')).not.toContain('s3cr3t-value');
  });

  it('serves many concurrent requests on keep-alive connections', async () => {
    const writes = Array.from({ length: 200 }, (_, i) => api.post(`auth/ldap/users/u${i}`, { policies: `p${i}` }));
    expect(new Set((await Promise.all(writes)).map((r) => r.status))).toEqual(new Set([204]));
    const reads = await Promise.all(Array.from({ length: 200 }, (_, i) => api.get(`auth/ldap/users/u${i}`)));
    reads.forEach((r, i) => expect(r.body.data.policies).toEqual([`p${i}`]));
  });
});
