import * as net from 'node:net';
import type { AddressInfo } from 'node:net';
import { inspect } from 'node:util';
import { afterEach, describe, expect, it } from 'vitest';
import { ApiError, TransportError } from '../../src/client/errors.js';
import { createClusterClient } from '../../src/client/http-client.js';
import { ConcurrencyLimiter } from '../../src/client/limiter.js';
import { Secret } from '../../src/core/secret.js';
import { closedPort, envelope, json, startServer, type TestServer } from './server.js';
import { caught, client, closeClients, TOKEN } from './support.js';
import { listNames } from '../../src/kinds/live-read.js';

let server: TestServer | undefined;
afterEach(async () => {
  closeClients();
  await server?.close();
  server = undefined;
});

describe('requests', () => {
  it('reads the envelope, sending the token in X-Vault-Token', async () => {
    server = await startServer((_req, res) => json(res, 200, envelope({ url: 'ldap://a' }, { warnings: ['w1'] })));
    const c = client(server.baseUrl, { userAgent: 'lockstep-test' });
    expect(await c.read('auth/ldap/config')).toEqual({ url: 'ldap://a' });
    const res = await c.request('GET', 'auth/ldap/config');
    expect(res).toMatchObject({ status: 200, data: { url: 'ldap://a' }, auth: null, warnings: ['w1'] });
    expect(res.body?.['request_id']).toBe('r-1');
    const seen = server.seen[0]!;
    expect(seen).toMatchObject({ method: 'GET', url: '/v1/auth/ldap/config' });
    expect(seen.headers['x-vault-token']).toBe(TOKEN);
    expect(seen.headers['user-agent']).toBe('lockstep-test');
    expect(c.requestCount).toBe(2);
  });

  it("sends LIST as GET ?list=true, as the service's own client does; listNames returns data.keys", async () => {
    server = await startServer((_req, res) => json(res, 200, envelope({ keys: ['alice', 'bob'] })));
    const c = client(server.baseUrl);
    expect(await listNames(c, 'auth/ldap/users')).toEqual(['alice', 'bob']);
    await c.request('LIST', 'sys/health', { query: { standbyok: 'true' } });
    expect(server.seen.map((s) => `${s.method} ${s.url}`)).toEqual([
      'GET /v1/auth/ldap/users?list=true',
      'GET /v1/sys/health?standbyok=true&list=true',
    ]);
  });

  it('treats 404 as null on read, [] on list and done on delete', async () => {
    server = await startServer((_req, res) => json(res, 404, { errors: [] }));
    const c = client(server.baseUrl);
    expect(await c.read('auth/ldap/groups/none')).toBeNull();
    expect(await listNames(c, 'auth/ldap/groups')).toEqual([]);
    await expect(c.delete('auth/ldap/groups/none')).resolves.toBeUndefined();
    expect(server.seen.map((s) => s.method)).toEqual(['GET', 'GET', 'DELETE']);
    // Any other request: 404 is an error.
    const err = await caught(() => c.write('auth/ldap/groups/none', {}));
    expect(err).toBeInstanceOf(ApiError);
    expect(err.message).toBe(`POST ${server.baseUrl}/auth/ldap/groups/none: 404 Not Found`);
  });

  it('accepts a 404 with a body that is not JSON where 404 is an answer', async () => {
    server = await startServer((_req, res) => {
      res.writeHead(404, { 'Content-Type': 'text/plain' });
      res.end('404 page not found');
    });
    expect(await client(server.baseUrl).read('x')).toBeNull();
  });

  it('returns an answer without the envelope whole, as data', async () => {
    const health = { initialized: true, sealed: false, standby: false, version: '1.0' };
    server = await startServer((_req, res) => json(res, 200, health));
    const res = await client(server.baseUrl).request('GET', 'sys/health', { anonymous: true });
    expect(res.data).toEqual(health);
    expect(res.body).toEqual(health);
    expect(server.seen[0]!.headers['x-vault-token']).toBeUndefined();
  });

  it('handles 204 (no body)', async () => {
    server = await startServer((_req, res) => {
      res.writeHead(204);
      res.end();
    });
    const res = await client(server.baseUrl).write('auth/ldap/groups/admins', { policies: ['admin'] });
    expect(res).toEqual({ status: 204, data: null, auth: null, warnings: [], body: null });
  });

  it('serialises Secret values in the body, and only there', async () => {
    server = await startServer((_req, res) => json(res, 200, envelope(null, { warnings: ['userfilter ...'] })));
    const c = client(server.baseUrl);
    const res = await c.write('auth/ldap/config', { binddn: 'cn=svc', bindpass: new Secret('s3cret', 'env:X'), list: [new Secret('k', 'f')] });
    expect(res.warnings).toEqual(['userfilter ...']);
    const seen = server.seen[0]!;
    expect(seen.method).toBe('POST');
    expect(seen.headers['content-type']).toBe('application/json');
    expect(JSON.parse(seen.body)).toEqual({ binddn: 'cn=svc', bindpass: 's3cret', list: ['k'] });
  });

  it('encodes path segments that need it', async () => {
    server = await startServer((_req, res) => json(res, 200, envelope({})));
    const c = client(server.baseUrl);
    await c.read('auth/ldap/users/jane doe');
    await c.read('auth/ldap/users/a#b');
    expect(server.seen.map((s) => s.url)).toEqual(['/v1/auth/ldap/users/jane%20doe', '/v1/auth/ldap/users/a%23b']);
  });

  it('never shows the token when inspected or serialised', async () => {
    server = await startServer((_req, res) => json(res, 200, envelope({})));
    const c = client(server.baseUrl);
    expect(inspect(c, { showHidden: true, depth: 5 })).not.toContain('CANARY');
    expect(JSON.stringify(c)).not.toContain('CANARY');
    expect(c.baseUrl).toBe(server.baseUrl);
  });

  it('refuses an address that is not an http(s) base URL', () => {
    const limiter = new ConcurrencyLimiter(1);
    const target = (address: string) => ({ name: 'east', address, auth: { method: 'token' as const, token: new Secret('t', 'x') }, authSource: 'test', insecureSkipVerify: false });
    expect(() => createClusterClient(target('nope'), { limiter })).toThrow(/cluster east: address "nope" is not a URL/);
    expect(() => createClusterClient(target('ftp://h/v1'), { limiter })).toThrow(/must start with http/);
  });
});

describe('errors', () => {
  it("quotes the server's errors[] with method, URL and status", async () => {
    server = await startServer((_req, res) => json(res, 400, { errors: ['invalid userfilter: template: x', 'second'] }));
    const err = await caught(() => client(server!.baseUrl).write('auth/ldap/config', { userfilter: '{{' }));
    expect(err).toBeInstanceOf(ApiError);
    const api = err as ApiError;
    expect(api.message).toBe(`POST ${server.baseUrl}/auth/ldap/config: 400 Bad Request: invalid userfilter: template: x; second`);
    expect(api).toMatchObject({ status: 400, method: 'POST', url: `${server.baseUrl}/auth/ldap/config`, cluster: 'east' });
    expect(api.errors).toEqual(['invalid userfilter: template: x', 'second']);
    expect(api.message).not.toContain('    at '); // no stack trace in the message
  });

  it('scrubs the token and body secrets a server echoes back', async () => {
    server = await startServer((req, res) =>
      json(res, 403, { errors: [`token ${String(req.headers['x-vault-token'])} denied`, `bad bindpass ${req.body ? JSON.parse(req.body).bindpass : ''}`] }),
    );
    const err = (await caught(() =>
      client(server!.baseUrl).write('auth/ldap/config', { bindpass: new Secret('pa55-CANARY', 'env:P') }),
    )) as ApiError;
    expect(err.message).not.toContain('CANARY');
    expect(err.errors.join()).not.toContain('CANARY');
    expect(err.message).toContain('token (sensitive) denied; bad bindpass (sensitive)');
    expect(inspect(err)).not.toContain('CANARY');
  });

  it('names a body that is not JSON as an unexpected response', async () => {
    server = await startServer((_req, res) => {
      res.writeHead(200, { 'Content-Type': 'text/html' });
      res.end('<html>proxy login</html>');
    });
    const err = await caught(() => client(server!.baseUrl).read('auth/ldap/config'));
    expect(err).toBeInstanceOf(ApiError);
    expect(err.message).toBe(
      `east: GET ${server.baseUrl}/auth/ldap/config: 200 OK: unexpected response: body is not JSON (starts with "<html>proxy login</html>")`,
    );
  });

  it('names a wrongly shaped answer as an unexpected response', async () => {
    const bodies: unknown[] = [envelope({ keys: 'alice' }), envelope({ keys: [1, 2] }), envelope({}), envelope('text'), [1, 2], envelope({}, { warnings: 'w' })];
    server = await startServer((_req, res) => json(res, 200, bodies.shift()));
    const c = client(server.baseUrl);
    const messages: string[] = [];
    for (let i = 0; i < 4; i++) messages.push((await caught(() => listNames(c, 'auth/ldap/users'))).message);
    messages.push((await caught(() => c.read('x'))).message);
    messages.push((await caught(() => c.read('x'))).message);
    const base = `east: LIST ${server.baseUrl}/auth/ldap/users: 200 OK: unexpected response: `;
    expect(messages).toEqual([
      // The LIST of production (kinds/live-read.ts listNames): its answer's shape checked as every live answer is.
      'east: LIST auth/ldap/users: field "keys" is a string, expected a list of strings',
      'east: LIST auth/ldap/users: field "keys[0]" is a number, expected a string; field "keys[1]" is a number, expected a string',
      'east: LIST auth/ldap/users: field "keys" is missing',
      `${base}"data" is not an object`,
      `east: GET ${server.baseUrl}/x: 200 OK: unexpected response: body is not a JSON object (starts with "[1,2]")`,
      `east: GET ${server.baseUrl}/x: 200 OK: unexpected response: "warnings" is not a list of strings`,
    ]);
  });

  it('quotes the start of a non-JSON error body', async () => {
    server = await startServer((_req, res) => {
      res.writeHead(502);
      res.end('bad gateway from the proxy');
    });
    const err = await caught(() => client(server!.baseUrl, { retries: 0 }).read('x'));
    expect(err.message).toBe(`GET ${server.baseUrl}/x: 502 Bad Gateway: "bad gateway from the proxy"`);
  });

  it('reports a refused connection plainly, naming the cluster and address', async () => {
    const port = await closedPort();
    const c = client(`http://127.0.0.1:${port}/v1`, { retries: 1 });
    const err = await caught(() => c.read('sys/health'));
    expect(err).toBeInstanceOf(TransportError);
    expect(err.message).toBe(`cannot reach east at http://127.0.0.1:${port}/v1: connection refused (GET sys/health, 2 attempts)`);
    expect((err as TransportError).code).toBe('ECONNREFUSED');
    expect((err as TransportError).attempts).toBe(2);
    expect(err.message).not.toContain(TOKEN);
    expect(c.requestCount).toBe(2);
  });

  it('reports an unknown host', async () => {
    const err = await caught(() => client('http://no-such-host.invalid:8200/v1', { retries: 0 }).read('sys/health'));
    expect(err).toBeInstanceOf(TransportError);
    expect(err.message).toMatch(/^cannot reach east at http:\/\/no-such-host\.invalid:8200\/v1: host (not found|name lookup failed)/);
  });

  it('times out a request that gets no answer', async () => {
    server = await startServer(() => {
      /* never answers */
    });
    const c = client(server.baseUrl, { timeoutMs: 100, retries: 1 });
    const t0 = Date.now();
    const err = await caught(() => c.read('sys/health'));
    expect(err).toBeInstanceOf(TransportError);
    expect(err.message).toBe(`cannot reach east at ${server.baseUrl}: no answer within 100ms (GET sys/health, 2 attempts)`);
    expect(Date.now() - t0).toBeGreaterThanOrEqual(190);
    expect(server.seen).toHaveLength(2);
    // A POST is not retried after a timeout: the server may have acted on it.
    const post = await caught(() => c.write('auth/ldap/config', {}, {}));
    expect((post as TransportError).attempts).toBe(1);
    expect(server.seen).toHaveLength(3);
    // A per-request timeout overrides the client's.
    const quick = await caught(() => c.request('GET', 'x', { timeoutMs: 30, idempotent: false }));
    expect(quick.message).toContain('no answer within 30ms');
  });

  it('treats a connection closed in the middle of the body as a transport failure', async () => {
    server = await startServer((_req, res) => {
      res.writeHead(200, { 'Content-Type': 'application/json', 'Content-Length': '100' });
      res.write('{"data":');
      setTimeout(() => res.destroy(), 5);
    });
    const err = await caught(() => client(server!.baseUrl, { retries: 0 }).read('x'));
    expect(err).toBeInstanceOf(TransportError);
    expect(err.message).toMatch(/connection closed/);
  });

  it('names an answer that is not HTTP, without retrying it', async () => {
    const raw = net.createServer((socket) => socket.on('data', () => socket.write('SSH-2.0-OpenSSH_9.6\r\n\r\n')));
    await new Promise<void>((resolve) => raw.listen(0, '127.0.0.1', resolve));
    try {
      const base = `http://127.0.0.1:${(raw.address() as AddressInfo).port}/v1`;
      const err = await caught(() => client(base).read('sys/health'));
      expect(err).toBeInstanceOf(TransportError);
      expect(err.message).toBe(`cannot reach east at ${base}: the answer is not valid HTTP/1.1 (Expected HTTP/, RTSP/ or ICE/) (GET sys/health)`);
    } finally {
      await new Promise((resolve) => raw.close(resolve));
    }
  });

  it('refuses to send a token that would break the request, without showing it', async () => {
    server = await startServer((_req, res) => json(res, 200, envelope({})));
    const secret = 'hvs.CANARY-split\r\nX-Injected: 1';
    const c = createClusterClient(
      { name: 'east', address: server.baseUrl, auth: { method: 'token' as const, token: new Secret(secret, 'env:EAST_TOKEN') }, authSource: 'test', insecureSkipVerify: false },
      { limiter: new ConcurrencyLimiter(1) },
    );
    try {
      const err = await caught(() => c.read('sys/health'));
      expect(err.message).toBe(`cannot reach east at ${server.baseUrl}: request header x-vault-token holds a character HTTP does not allow (GET sys/health)`);
      expect(err.message).not.toContain('CANARY');
      expect(server.seen).toHaveLength(0);
    } finally {
      c.close();
    }
  });
});
