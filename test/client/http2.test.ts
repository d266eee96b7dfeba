import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import * as http2 from 'node:http2';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConcurrencyLimiter } from '../../src/client/limiter.js';
import { client, closeClients, TOKEN } from './support.js';
import { listNames } from '../../src/kinds/live-read.js';

let dir: string;
let cert: string;
let server: http2.Http2SecureServer;
let baseUrl: string;
const seen: Array<{ version: string; method: string; url: string; token: unknown }> = [];
let sessions = 0;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'lockstep-h2-'));
  execFileSync(
    'openssl',
    ['req', '-x509', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes', '-days', '1', '-subj', '/CN=h2',
      '-addext', 'subjectAltName=IP:127.0.0.1', '-keyout', join(dir, 'k.pem'), '-out', join(dir, 'c.pem')],
    { stdio: 'ignore' },
  );
  cert = readFileSync(join(dir, 'c.pem'), 'utf8');
  // As the service listens: TLS offering h2 and http/1.1 by ALPN.
  server = http2.createSecureServer({ key: readFileSync(join(dir, 'k.pem')), cert, allowHTTP1: true }, (req, res) => {
    if (hold) {
      held.push(() => answer(req, res));
      if (held.length >= hold) held.splice(0).forEach((go) => go());
      return;
    }
    answer(req, res);
  });
  server.on('session', () => sessions++);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  baseUrl = `https://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
});

/** While set, answers wait until this many requests are in flight at the server. */
let hold = 0;
const held: Array<() => void> = [];

function answer(req: http2.Http2ServerRequest, res: http2.Http2ServerResponse): void {
  {
    seen.push({ version: req.httpVersion, method: req.method, url: req.url, token: req.headers['x-vault-token'] });
    const body = JSON.stringify({ data: { keys: ['a'], v: req.httpVersion } });
    res.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) });
    res.end(body);
  }
}

afterAll(async () => {
  closeClients();
  await new Promise((resolve) => server.close(resolve));
  rmSync(dir, { recursive: true, force: true });
});

describe('HTTP/2', () => {
  it('speaks HTTP/2 where a TLS server offers it', async () => {
    const c = client(baseUrl, { caCert: cert, limiter: new ConcurrencyLimiter(8) });
    expect(await c.read('auth/ldap/config')).toEqual({ keys: ['a'], v: '2.0' });
    await Promise.all(Array.from({ length: 40 }, () => listNames(c, 'auth/ldap/users')));
    expect(seen.every((s) => s.version === '2.0')).toBe(true);
    expect(seen[0]).toMatchObject({ method: 'GET', url: '/v1/auth/ldap/config', token: TOKEN });
    expect(seen[1]).toMatchObject({ method: 'GET', url: '/v1/auth/ldap/users?list=true' });
    // Connections opened before the first one's ALPN answer came are HTTP/2 too; no more than
    // the limiter lets be in flight.
    expect(sessions).toBeLessThanOrEqual(8);
  });

  it('sends a call it would not retry over HTTP/1.1 on a connection of its own', async () => {
    const c = client(baseUrl, { caCert: cert });
    const res = await c.write('auth/ldap/config', { a: 1 });
    expect(res.data).toMatchObject({ v: '1.1' });
  });

  it('#16.3: many requests in flight share one HTTP/2 connection (streams), not a connection each', async () => {
    const c = client(baseUrl, { caCert: cert, limiter: new ConcurrencyLimiter(64) });
    await c.read('auth/ldap/config');
    const before = sessions;
    // The server answers none until all 64 are in flight at once.
    hold = 64;
    try {
      await Promise.all(Array.from({ length: 64 }, () => c.read('auth/ldap/config')));
    } finally {
      hold = 0;
    }
    expect(sessions - before).toBe(0);
  });
});
