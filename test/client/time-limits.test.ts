import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { RunDeadline } from '../../src/client/deadline.js';
import { ApiError, TransportError } from '../../src/client/errors.js';
import { ConcurrencyLimiter } from '../../src/client/limiter.js';
import { json, startServer, type TestServer } from './server.js';
import { caught, client, closeClients, TOKEN } from './support.js';
import { startSilentServer, type SilentServer } from '../support/silent-server.js';

const servers: Array<{ close: () => unknown }> = [];
afterEach(async () => {
  closeClients();
  await Promise.all(servers.splice(0).map((s) => s.close()));
});

/** A TCP server that accepts connections and never says a word, closed after the test. */
async function silentServer(): Promise<SilentServer> {
  const silent = await startSilentServer();
  servers.push(silent);
  return silent;
}

async function served(handler: Parameters<typeof startServer>[0]): Promise<TestServer> {
  const s = await startServer(handler);
  servers.push(s);
  return s;
}

describe('time limits that fail fast (#13.12)', () => {
  it('#13.12: a server that accepts and never answers: "no answer within N", a GET retried once only, a POST not at all', async () => {
    const silent = await silentServer();
    const base = `http://127.0.0.1:${silent.port}/v1`;
    const c = client(base, { timeoutMs: 40, retries: 4 });
    const err = await caught(() => c.read('sys/health'));
    expect(err).toBeInstanceOf(TransportError);
    expect(err.message).toBe(`cannot reach east at ${base}: no answer within 40ms (GET sys/health, 2 attempts)`);
    expect((err as TransportError).attempts).toBe(2);
    const post = (await caught(() => c.write('auth/ldap/config', {}))) as TransportError;
    expect(post.attempts).toBe(1);
    expect(post.message).toContain('no answer within 40ms');
  });

  it('#13.12: a TLS handshake that never finishes is a connect timeout, apart from the request timeout', async () => {
    const silent = await silentServer();
    const base = `https://127.0.0.1:${silent.port}/v1`;
    const c = client(base, { connectTimeoutMs: 40, timeoutMs: 30_000, retries: 4 });
    const err = (await caught(() => c.read('sys/health'))) as TransportError;
    expect(err).toBeInstanceOf(TransportError);
    expect(err.message).toBe(`cannot reach east at ${base}: connect timeout: no connection within 40ms (GET sys/health, 2 attempts)`);
    expect(err.attempts).toBe(2);
  });

  it('#13.12: TLS to a plain-HTTP port fails at once and is never retried', async () => {
    // Node's own HTTP server, as a plain-HTTP service would answer a TLS hello: with a 400.
    const plain = http.createServer((_req, res) => json(res, 200, {}));
    await new Promise<void>((resolve) => plain.listen(0, '127.0.0.1', resolve));
    servers.push({ close: () => new Promise((resolve) => plain.close(resolve)) });
    const base = `https://127.0.0.1:${(plain.address() as AddressInfo).port}/v1`;
    const c = client(base, { retries: 4 });
    const started = performance.now();
    const err = (await caught(() => c.read('sys/health'))) as TransportError;
    expect(err).toBeInstanceOf(TransportError);
    expect(err.message).toMatch(new RegExp(`^cannot reach east at ${base.replace(/[.]/g, '\\.')}: TLS failure: .*wrong version number`));
    expect(err.attempts).toBe(1);
    expect(c.requestCount).toBe(1);
    expect(performance.now() - started).toBeLessThan(5000);
  });

  it('#13.12: the run deadline cuts a waiting request short and names itself', async () => {
    const silent = await silentServer();
    const base = `http://127.0.0.1:${silent.port}/v1`;
    const deadline = new RunDeadline(60);
    const c = client(base, { timeoutMs: 30_000, retries: 4, deadline });
    const err = (await caught(() => c.read('sys/health'))) as TransportError;
    expect(err).toBeInstanceOf(TransportError);
    expect(err.message).toBe(`cannot reach east at ${base}: run deadline of 60ms reached (GET sys/health)`);
    expect(err.code).toBe('LOCKSTEP_DEADLINE');
    expect(err.attempts).toBe(1);
  });

  it('#13.12: once the run deadline has passed, nothing more is sent (injected clock)', async () => {
    const s = await served((_req, res) => json(res, 200, { data: {} }));
    let now = 0;
    const deadline = new RunDeadline(5 * 60_000, () => now);
    const c = client(s.baseUrl, { deadline, limiter: new ConcurrencyLimiter(2) });
    expect(await c.read('x')).toEqual({});
    now = 5 * 60_000;
    const err = (await caught(() => c.read('x'))) as TransportError;
    expect(err.message).toBe(`cannot reach east at ${s.baseUrl}: run deadline of 5m reached (GET x)`);
    expect(s.seen).toHaveLength(1);
    expect(c.requestCount).toBe(1);
  });

  it('#13.12: a retry that could start only after the run deadline is not waited for', async () => {
    const s = await served((_req, res) => json(res, 503, { errors: ['sealed'] }, { 'Retry-After': '10' }));
    let now = 0;
    const deadline = new RunDeadline(2000, () => now);
    const c = client(s.baseUrl, { deadline, backoff: { maxRetryAfterMs: 10_000 } });
    const started = performance.now();
    const err = (await caught(() => c.read('x'))) as TransportError;
    expect(performance.now() - started).toBeLessThan(1000);
    expect(err.message).toBe(`cannot reach east at ${s.baseUrl}: run deadline of 2s reached (GET x)`);
    expect(s.seen).toHaveLength(1);
    now = 1;
    // Without a deadline in the way the same answer is an ApiError after the retries.
    const quick = client(s.baseUrl, { retries: 1, backoff: { maxRetryAfterMs: 1 } });
    expect(await caught(() => quick.read('x'))).toBeInstanceOf(ApiError);
  });

  it('#13.12: the limits never show the token', async () => {
    const silent = await silentServer();
    const c = client(`https://127.0.0.1:${silent.port}/v1`, { connectTimeoutMs: 20, retries: 0 });
    const err = await caught(() => c.read('x'));
    expect(err.message).not.toContain(TOKEN);
    expect(err.message).not.toContain('    at ');
  });
});
