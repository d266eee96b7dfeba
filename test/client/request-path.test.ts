import { afterEach, describe, expect, it } from 'vitest';
import { ApiError, RefusedRequestError } from '../../src/client/errors.js';
import { Address } from '../../src/core/address.js';
import { envelope, json, startServer, type TestServer } from './server.js';
import { caught, client, closeClients, TOKEN } from './support.js';

let server: TestServer | undefined;
afterEach(async () => {
  closeClients();
  await server?.close();
  server = undefined;
});

async function echo(): Promise<TestServer> {
  server = await startServer((_req, res) => json(res, 200, envelope({})));
  return server;
}

describe('request paths: every segment encoded exactly once, never a query from the path', () => {
  it('#13.1: a name with "?" is one segment: DELETE bob?x does not delete bob', async () => {
    const s = await echo();
    const c = client(s.baseUrl);
    await c.delete('auth/qm/users/bob?x');
    await c.delete(new Address('east', ['auth', 'qm', 'users', 'x?y=1']));
    await c.read('auth/qm/users/a#b');
    await c.read('auth/qm/users/50%');
    await c.read('auth/qm/users/jane doe');
    expect(s.seen.map((r) => `${r.method} ${r.url}`)).toEqual([
      'DELETE /v1/auth/qm/users/bob%3Fx',
      'DELETE /v1/auth/qm/users/x%3Fy%3D1',
      'GET /v1/auth/qm/users/a%23b',
      'GET /v1/auth/qm/users/50%25',
      'GET /v1/auth/qm/users/jane%20doe',
    ]);
  });

  it('#13.1: a segment the service cannot address is refused before anything is sent, naming cluster and path', async () => {
    const s = await echo();
    const c = client(s.baseUrl);
    const cases: Array<[string | Address, string]> = [
      ['auth/qm/users/..', 'auth/qm/users/..'],
      ['auth/qm/users/.', 'auth/qm/users/.'],
      [new Address('east', ['auth', 'qm', 'users', 'a/b']), 'auth/qm/users/a/b'],
      [{ segments: ['auth', 'qm', 'users', '..'] } as unknown as Address, 'auth/qm/users/..'],
      ['auth//users', 'auth//users'],
      ['/sys/health', '/sys/health'],
      ['auth/qm/users/a\r\nX-Injected: 1', 'auth/qm/users/a\r\nX-Injected: 1'],
    ];
    for (const [path, shown] of cases) {
      const err = await caught(() => c.delete(path));
      expect(err, String(path)).toBeInstanceOf(RefusedRequestError);
      const refused = err as RefusedRequestError;
      expect(refused.code).toBe('LOCKSTEP_UNADDRESSABLE');
      expect(refused.cluster).toBe('east');
      expect(refused.message).toContain(`refusing to send DELETE to east: path ${JSON.stringify(shown)}: segment`);
      expect(refused.message).toContain('nothing was sent');
    }
    expect(s.seen).toHaveLength(0);
    expect(c.requestCount).toBe(0);
  });

  it('#13.1: a query goes in RequestOptions.query, encoded; the path never carries one', async () => {
    const s = await echo();
    const c = client(s.baseUrl);
    await c.request('GET', 'sys/health', { query: { standbyok: 'true', 'a&b': 'c=d?' } });
    await c.request('GET', 'sys/health?standbyok=true');
    expect(s.seen.map((r) => r.url)).toEqual(['/v1/sys/health?standbyok=true&a%26b=c%3Dd%3F', '/v1/sys/health%3Fstandbyok%3Dtrue']);
  });

  it('#13.1: messages show the path as the plan shows it, without the token', async () => {
    server = await startServer((_req, res) => json(res, 403, { errors: ['permission denied'] }));
    const err = await caught(() => client(server!.baseUrl).delete('auth/qm/users/bob?x'));
    expect(err).toBeInstanceOf(ApiError);
    expect(err.message).toMatch(new RegExp(`^DELETE ${server.baseUrl}/auth/qm/users/bob\\?x: 403 Forbidden: permission denied \\(cluster east`));
    expect(err.message).not.toContain(TOKEN);
  });
});

describe('answers of the wrong shape', () => {
  it('#13.9: a read whose 2xx answer has data: null (or none) is an error naming cluster, path and field, not an empty object', async () => {
    const bodies: unknown[] = [envelope(null), { request_id: 'r', warnings: null }, envelope([1])];
    server = await startServer((_req, res) => json(res, 200, bodies.shift()));
    const c = client(server.baseUrl);
    for (let i = 0; i < 3; i++) {
      const err = await caught(() => c.read('sys/mounts/qm'));
      expect(err).toBeInstanceOf(ApiError);
      expect((err as ApiError).cluster).toBe('east');
      expect(err.message).toBe(`east: GET ${server.baseUrl}/sys/mounts/qm: 200 OK: unexpected response: "data" is not an object`);
    }
  });

  it('#13.9: a number that is not finite (1e400) in an answer is an error naming the field', async () => {
    const texts = [
      '{"data":{"config":{"token_ttl":1e400}}}',
      '{"data":{"keys":["a"],"n":[1,-1E+999]}}',
      // In a string it is just text.
      '{"data":{"note":"1e400"}}',
    ];
    server = await startServer((_req, res) => {
      const text = texts.shift()!;
      res.writeHead(200, { 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(text) });
      res.end(text);
    });
    const c = client(server.baseUrl);
    expect((await caught(() => c.read('auth/ldap/config'))).message).toBe(
      `east: GET ${server.baseUrl}/auth/ldap/config: 200 OK: unexpected response: "data.config.token_ttl" is not a finite number`,
    );
    expect((await caught(() => c.read('x'))).message).toContain('"data.n[1]" is not a finite number');
    expect(await c.read('x')).toEqual({ note: '1e400' });
  });
});
