import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import * as http2 from 'node:http2';
import * as net from 'node:net';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { TransportError } from '../../src/client/errors.js';
import { ConcurrencyLimiter } from '../../src/client/limiter.js';
import { proxyFor, type ProxySettings } from '../../src/client/proxy.js';
import { closedPort, envelope, json, startServer, type TestServer } from './server.js';
import { caught, client, closeClients, TOKEN } from './support.js';

const PASSWORD = 'CANARY-proxy-pass-77';
const AUTHORIZATION = `Basic ${Buffer.from(`ops:${PASSWORD}`).toString('base64')}`;

describe('the proxy from the environment', () => {
  const https = new URL('https://vault.example.com:8200/v1');
  const http = new URL('http://vault.example.com/v1');

  it('takes HTTPS_PROXY for https and HTTP_PROXY for http, upper case first', () => {
    const env = { HTTPS_PROXY: 'http://proxy.corp:3128', https_proxy: 'http://other:1', http_proxy: 'proxy.corp' };
    expect(proxyFor(https, env)).toEqual({ url: 'http://proxy.corp:3128' });
    expect(proxyFor(http, env)).toEqual({ url: 'http://proxy.corp' });
    expect(proxyFor(https, { https_proxy: 'https://proxy.corp' })).toEqual({ url: 'https://proxy.corp' });
    expect(proxyFor(https, {})).toBeUndefined();
    expect(proxyFor(https, { HTTPS_PROXY: ' ' })).toBeUndefined();
  });

  it('turns credentials into Proxy-Authorization and keeps them out of the display', () => {
    const proxy = proxyFor(https, { HTTPS_PROXY: `http://ops:${encodeURIComponent(PASSWORD)}@proxy.corp:3128` });
    expect(proxy).toEqual({ url: 'http://proxy.corp:3128', authorization: AUTHORIZATION });
  });

  it('never proxies loopback', () => {
    const env = { HTTPS_PROXY: 'http://proxy.corp:3128', HTTP_PROXY: 'http://proxy.corp:3128' };
    for (const url of ['http://127.0.0.1:8200/v1', 'http://localhost:8200/v1', 'https://[::1]:8200/v1', 'http://vault.localhost/v1']) {
      expect(proxyFor(new URL(url), env), url).toBeUndefined();
    }
  });

  it.each([
    ['*', true],
    ['vault.example.com', true],
    ['example.com', true],
    ['.example.com', true],
    ['*.example.com', true],
    ['ample.com', false],
    ['vault.example.com:8200', true],
    ['vault.example.com:443', false],
    ['other.org, example.com', true],
    ['other.org', false],
  ])('NO_PROXY=%s bypasses vault.example.com:8200: %s', (noProxy, bypass) => {
    const proxy = proxyFor(https, { HTTPS_PROXY: 'http://proxy.corp:3128', NO_PROXY: noProxy });
    expect(proxy === undefined).toBe(bypass);
  });

  it('matches addresses and CIDR blocks in NO_PROXY', () => {
    const env = (noProxy: string) => ({ HTTPS_PROXY: 'http://proxy.corp:3128', no_proxy: noProxy });
    const address = new URL('https://10.1.2.3:8200/v1');
    expect(proxyFor(address, env('10.1.2.3'))).toBeUndefined();
    expect(proxyFor(address, env('10.0.0.0/8'))).toBeUndefined();
    expect(proxyFor(address, env('10.1.2.0/24:8200'))).toBeUndefined();
    expect(proxyFor(address, env('192.168.0.0/16'))).toBeDefined();
    expect(proxyFor(new URL('https://[fd00::5]:8200/v1'), env('fd00::/8'))).toBeUndefined();
  });

  it('refuses a proxy it cannot use, naming the variable and not the credentials', () => {
    expect(() => proxyFor(https, { HTTPS_PROXY: `socks5://ops:${PASSWORD}@proxy.corp:1080` })).toThrow('HTTPS_PROXY: only http:// and https:// proxies are supported (got socks5://)');
    expect(() => proxyFor(https, { HTTPS_PROXY: `http://ops:${PASSWORD}@[` })).toThrow(/^HTTPS_PROXY is not a URL$/);
    expect(() => proxyFor(https, { HTTPS_PROXY: `http://ops:${PASSWORD}%zz@proxy.corp:3128` })).toThrow(/^HTTPS_PROXY: its user name or password holds a malformed %-escape$/);
  });
});

/** A forward proxy on loopback: CONNECT tunnels, and absolute-form requests passed on as bytes. */
async function startProxy(opts: { require?: string; refuse?: number } = {}): Promise<{ settings: ProxySettings; seen: Array<{ line: string; auth?: string }>; close: () => Promise<void> }> {
  const seen: Array<{ line: string; auth?: string }> = [];
  const sockets = new Set<net.Socket>();
  const server = net.createServer((downstream) => {
    sockets.add(downstream);
    downstream.on('error', () => {});
    let head = Buffer.alloc(0);
    const onData = (chunk: Buffer): void => {
      head = Buffer.concat([head, chunk]);
      const end = head.indexOf('\r\n\r\n');
      if (end < 0) return;
      downstream.off('data', onData);
      const [line, ...fields] = head.toString('latin1', 0, end).split('\r\n');
      const auth = fields.find((f) => /^proxy-authorization:/i.test(f))?.replace(/^[^:]+:\s*/, '');
      seen.push({ line: line!, ...(auth ? { auth } : {}) });
      if (opts.refuse || (opts.require && auth !== opts.require)) {
        downstream.end(`HTTP/1.1 ${opts.refuse ?? 407} Refused ${PASSWORD}\r\nContent-Length: 0\r\n\r\n`);
        return;
      }
      const [method, target] = line!.split(' ');
      const to = method === 'CONNECT' ? new URL(`http://${target}`) : new URL(target!);
      const upstream = net.connect(Number(to.port), to.hostname, () => {
        if (method === 'CONNECT') downstream.write('HTTP/1.1 200 Connection established\r\n\r\n');
        else upstream.write(head);
        downstream.pipe(upstream);
        upstream.pipe(downstream);
      });
      sockets.add(upstream);
      upstream.on('error', () => downstream.destroy());
    };
    downstream.on('data', onData);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    settings: { url: `http://127.0.0.1:${port}`, ...(opts.require ? { authorization: opts.require } : {}) },
    seen,
    close: () =>
      new Promise<void>((resolve) => {
        for (const s of sockets) s.destroy();
        server.close(() => resolve());
      }),
  };
}

describe('requests through a proxy', () => {
  let dir: string;
  let cert: string;
  let key: string;
  const open: Array<{ close: () => Promise<void> }> = [];

  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'lockstep-proxy-'));
    execFileSync(
      'openssl',
      ['req', '-x509', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes', '-days', '1', '-subj', '/CN=vault',
        '-addext', 'subjectAltName=DNS:localhost,IP:127.0.0.1', '-keyout', join(dir, 'k.pem'), '-out', join(dir, 'c.pem')],
      { stdio: 'ignore' },
    );
    cert = readFileSync(join(dir, 'c.pem'), 'utf8');
    key = readFileSync(join(dir, 'k.pem'), 'utf8');
  });
  afterEach(async () => {
    closeClients();
    await Promise.all(open.splice(0).map((s) => s.close()));
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  async function served(tls?: boolean): Promise<TestServer> {
    const server = await startServer((req, res) => json(res, 200, envelope({ url: req.url })), tls ? { key, cert } : undefined);
    open.push(server);
    return server;
  }

  it('reaches an https server through a CONNECT tunnel, TLS end to end, with the proxy credentials', async () => {
    const server = await served(true);
    const proxy = await startProxy({ require: AUTHORIZATION });
    open.push(proxy);
    const c = client(server.baseUrl, { caCert: cert, proxy: proxy.settings });
    expect(await c.read('x')).toEqual({ url: '/v1/x' });
    await Promise.all(Array.from({ length: 8 }, () => c.read('x')));
    // One tunnel per connection, kept alive: the client's limiter allows 4.
    expect(proxy.seen.length).toBeLessThanOrEqual(4);
    expect(proxy.seen[0]).toEqual({ line: `CONNECT 127.0.0.1:${server.port} HTTP/1.1`, auth: AUTHORIZATION });
    // The token went inside the TLS: the proxy saw only the CONNECT.
    expect(server.seen[0]!.headers['x-vault-token']).toBe(TOKEN);
  });

  it('#16.3 through a proxy too: many requests in flight share one HTTP/2 connection, one tunnel', async () => {
    // As the service listens: TLS offering h2 and http/1.1 by ALPN; it answers none of the 64
    // until all are in flight at once.
    const held: Array<() => void> = [];
    let hold = 0;
    let sessions = 0;
    const server = http2.createSecureServer({ key, cert, allowHTTP1: true }, (req, res) => {
      const answer = (): void => void res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ data: { v: req.httpVersion } }));
      if (hold === 0) return answer();
      held.push(answer);
      if (held.length >= hold) held.splice(0).forEach((go) => go());
    });
    server.on('session', () => sessions++);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    open.push({ close: () => new Promise<void>((resolve) => server.close(() => resolve())) });
    const proxy = await startProxy();
    open.push(proxy);
    const c = client(`https://127.0.0.1:${(server.address() as AddressInfo).port}/v1`, { caCert: cert, proxy: proxy.settings, limiter: new ConcurrencyLimiter(64) });
    expect(await c.read('x')).toEqual({ v: '2.0' });
    expect([proxy.seen.length, sessions]).toEqual([1, 1]);
    hold = 64;
    await Promise.all(Array.from({ length: 64 }, () => c.read('x')));
    expect([proxy.seen.length, sessions]).toEqual([1, 1]);
  });

  it('sends plain http to the proxy, naming the whole URL', async () => {
    const server = await served();
    const proxy = await startProxy({ require: AUTHORIZATION });
    open.push(proxy);
    const c = client(server.baseUrl, { proxy: proxy.settings });
    expect(await c.read('x')).toEqual({ url: `http://127.0.0.1:${server.port}/v1/x` });
    expect(proxy.seen[0]).toEqual({ line: `GET http://127.0.0.1:${server.port}/v1/x HTTP/1.1`, auth: AUTHORIZATION });
  });

  it('says the proxy refused, through which proxy, and never shows its credentials', async () => {
    const server = await served(true);
    const proxy = await startProxy({ refuse: 407 });
    open.push(proxy);
    const c = client(server.baseUrl, { caCert: cert, proxy: { ...proxy.settings, authorization: AUTHORIZATION } });
    const err = await caught(() => c.read('x'));
    expect(err).toBeInstanceOf(TransportError);
    expect(err.message).toBe(`cannot reach east at ${server.baseUrl} through proxy ${proxy.settings.url}: the proxy refused the tunnel: 407 (GET x)`);
    expect(server.seen).toHaveLength(0);
  });

  it('reports a proxy that cannot be reached as such', async () => {
    const server = await served(true);
    const port = await closedPort();
    const display = `http://127.0.0.1:${port}`;
    const c = client(server.baseUrl, { caCert: cert, retries: 0, proxy: { url: display, authorization: AUTHORIZATION } });
    const err = await caught(() => c.read('x'));
    expect(err.message).toBe(`cannot reach east at ${server.baseUrl} through proxy ${display}: connection refused (GET x)`);
    for (const secret of [PASSWORD, AUTHORIZATION]) expect(err.message).not.toContain(secret);
  });
});
