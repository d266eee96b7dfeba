import { afterEach, describe, expect, it } from 'vitest';
import { ApiError, TransportError } from '../../src/client/errors.js';
import { createClusterClient } from '../../src/client/http-client.js';
import { ConcurrencyLimiter } from '../../src/client/limiter.js';
import { Secret } from '../../src/core/secret.js';
import { envelope, json, startServer, type TestServer } from './server.js';
import { caught, client, closeClients } from './support.js';
import { listNames } from '../../src/kinds/live-read.js';

const servers: TestServer[] = [];
afterEach(async () => {
  closeClients();
  await Promise.all(servers.splice(0).map((s) => s.close()));
});

/** A server answering `statuses` in turn (with headers), then 200 for ever. */
async function flaky(statuses: Array<number | [number, Record<string, string>]>): Promise<TestServer> {
  const s = await startServer((_req, res) => {
    const next = statuses.shift();
    if (next === undefined) return json(res, 200, envelope({ ok: true }));
    const [status, headers] = Array.isArray(next) ? next : [next, {}];
    json(res, status, { errors: [`try again (${status})`] }, headers);
  });
  servers.push(s);
  return s;
}

describe('retries', () => {
  it('retries a GET on 503, then succeeds', async () => {
    const s = await flaky([503, 503]);
    const c = client(s.baseUrl);
    expect(await c.read('x')).toEqual({ ok: true });
    expect(s.seen).toHaveLength(3);
    expect(c.requestCount).toBe(3);
  });

  it('retries 429, 500, 502 and 504 too, but not 400, 403 or 501', async () => {
    const s = await flaky([429, 500, 502, 504]);
    expect(await client(s.baseUrl).read('x')).toEqual({ ok: true });
    for (const status of [400, 403, 501]) {
      const t = await flaky([status]);
      const err = (await caught(() => client(t.baseUrl).read('x'))) as ApiError;
      expect(err.status).toBe(status);
      // A 403 is followed by one auth/token/lookup-self, to say what the token may do.
      expect(t.seen.filter((r) => !r.url.includes('lookup-self'))).toHaveLength(1);
    }
  });

  it('does not retry a POST by default', async () => {
    const s = await flaky([503]);
    const c = client(s.baseUrl);
    const err = (await caught(() => c.write('auth/ldap/config', { a: 1 }))) as ApiError;
    expect(err.status).toBe(503);
    expect(err.message).toBe(`POST ${s.baseUrl}/auth/ldap/config: 503 Service Unavailable: try again (503)`);
    expect(s.seen).toHaveLength(1);
  });

  it('retries a POST marked idempotent, resending the same body', async () => {
    const s = await flaky([503]);
    const c = client(s.baseUrl);
    const res = await c.write('auth/ldap/groups/admins', { policies: ['admin'], pw: new Secret('p', 'x') }, { idempotent: true });
    expect(res.status).toBe(200);
    expect(s.seen.map((r) => r.body)).toEqual(['{"policies":["admin"],"pw":"p"}', '{"policies":["admin"],"pw":"p"}']);
  });

  it('does not retry a DELETE marked non-idempotent', async () => {
    const s = await flaky([500]);
    await caught(() => client(s.baseUrl).request('DELETE', 'x', { idempotent: false }));
    expect(s.seen).toHaveLength(1);
  });

  it('gives up after `retries` more attempts, saying how many it made', async () => {
    const s = await flaky([503, 503, 503, 503]);
    const err = await caught(() => client(s.baseUrl, { retries: 2 }).read('x'));
    expect(err.message).toBe(`GET ${s.baseUrl}/x: 503 Service Unavailable: try again (503) (after 3 attempts)`);
    expect(s.seen).toHaveLength(3);
  });

  /** Records each wait before a retry, and how many requests the server had seen when it was asked for. */
  function recordedWaits(s: TestServer): { waits: Array<{ ms: number; seen: number }>; wait: (ms: number) => Promise<void> } {
    const waits: Array<{ ms: number; seen: number }> = [];
    return { waits, wait: async (ms) => void waits.push({ ms, seen: s.seen.length }) };
  }

  it('honours Retry-After in seconds', async () => {
    const s = await flaky([[429, { 'Retry-After': '1' }]]);
    const { waits, wait } = recordedWaits(s);
    expect(await client(s.baseUrl, { wait }).read('x')).toEqual({ ok: true });
    // One wait of the second the server asked for (the backoff's 5 ms at most is less), between the two requests.
    expect(waits).toEqual([{ ms: 1000, seen: 1 }]);
    expect(s.seen).toHaveLength(2);
  });

  it('caps a long Retry-After', async () => {
    const s = await flaky([[503, { 'Retry-After': '3600' }]]);
    const { waits, wait } = recordedWaits(s);
    await client(s.baseUrl, { backoff: { baseMs: 1, capMs: 5, maxRetryAfterMs: 50 }, wait }).read('x');
    expect(waits).toEqual([{ ms: 50, seen: 1 }]);
  });

  it('waits for real: a retry starts only when the wait is over', async () => {
    const s = await flaky([[429, { 'Retry-After': '1' }]]);
    const t0 = performance.now();
    await client(s.baseUrl, { backoff: { maxRetryAfterMs: 50 } }).read('x');
    expect(performance.now() - t0).toBeGreaterThanOrEqual(45);
    expect(s.seen).toHaveLength(2);
  });

  it('retries a GET after a dropped connection, but not a POST', async () => {
    let drops = 1;
    const s = await startServer((_req, res) => {
      if (drops-- > 0) return void res.socket?.destroy();
      json(res, 200, envelope({ ok: true }));
    });
    servers.push(s);
    const c = client(s.baseUrl);
    expect(await c.read('x')).toEqual({ ok: true });
    expect(s.seen).toHaveLength(2);
    drops = 1;
    const err = await caught(() => c.write('x', {}));
    expect(err).toBeInstanceOf(TransportError);
    expect(err.message).toBe(`cannot reach east at ${s.baseUrl}: connection closed by the server (POST x)`);
    expect(s.seen).toHaveLength(3);
  });

  it('does not retry a status the caller accepts', async () => {
    const s = await flaky([503]);
    const res = await client(s.baseUrl).request('GET', 'sys/health', { okStatuses: [503] });
    expect(res.status).toBe(503);
    expect(s.seen).toHaveLength(1);
  });
});

describe('connections and concurrency', () => {
  it('reuses keep-alive connections', async () => {
    const s = await startServer((_req, res) => json(res, 200, envelope({ n: 1 })));
    servers.push(s);
    const c = client(s.baseUrl, { limiter: new ConcurrencyLimiter(4) });
    // One after another: two at most (undici checks an idle connection for a turn of the event
    // loop before reusing it, and a request sent meanwhile takes another).
    for (let i = 0; i < 20; i++) await c.read('x');
    expect(s.connections).toBeLessThanOrEqual(2);
    await Promise.all(Array.from({ length: 200 }, () => c.read('x')));
    expect(s.connections).toBeLessThanOrEqual(4);
    expect(c.requestCount).toBe(220);
  });

  it('sends a call it would not retry only on a connection idle for less than a second', async () => {
    const s = await startServer((_req, res) => json(res, 200, envelope({ n: 1 })));
    servers.push(s);
    const c = client(s.baseUrl, { limiter: new ConcurrencyLimiter(1) });
    await c.read('x');
    await c.write('x', {});
    await c.write('x', {}); // idle for milliseconds: reused
    expect(s.connections).toBe(2); // one for calls that may be retried, one for those that may not
    // As after an approval prompt: the connection of calls that may not be retried is closed
    // once idle for a second (undici's keep-alive timer; it takes no injected clock).
    const until = Date.now() + 3000;
    while (s.open > 1 && Date.now() < until) await new Promise((resolve) => setTimeout(resolve, 10));
    expect(s.open).toBe(1);
    await c.write('x', {});
    expect(s.connections).toBe(3);
    await c.read('x'); // a read may be retried: on its kept-alive connection
    await c.write('x', {}, { idempotent: true });
    expect(s.connections).toBe(3);
  });

  it('never has more requests in flight than the shared limiter allows, across clients', async () => {
    const slow = (): Promise<TestServer> =>
      startServer((_req, res) => {
        setTimeout(() => json(res, 200, envelope({ keys: ['a'] })), 10);
      });
    const [a, b] = [await slow(), await slow()];
    servers.push(a, b);
    const limiter = new ConcurrencyLimiter(5);
    const token = new Secret('t', 'x');
    const ca = createClusterClient({ name: 'a', address: a.baseUrl, auth: { method: 'token' as const, token }, authSource: 'test', insecureSkipVerify: false }, { limiter });
    const cb = createClusterClient({ name: 'b', address: b.baseUrl, auth: { method: 'token' as const, token }, authSource: 'test', insecureSkipVerify: false }, { limiter });
    let maxTogether = 0;
    const watch = setInterval(() => (maxTogether = Math.max(maxTogether, a.inFlight + b.inFlight)), 1);
    try {
      await Promise.all(Array.from({ length: 60 }, (_, i) => listNames(i % 2 ? ca : cb, 'x')));
    } finally {
      clearInterval(watch);
      ca.close();
      cb.close();
    }
    expect(a.maxInFlight).toBeLessThanOrEqual(5);
    expect(b.maxInFlight).toBeLessThanOrEqual(5);
    expect(maxTogether).toBeLessThanOrEqual(5);
    expect(a.maxInFlight + b.maxInFlight).toBeGreaterThanOrEqual(5);
  });

  it('bounds one client to the limiter size', async () => {
    const s = await startServer((_req, res) => {
      setTimeout(() => json(res, 200, envelope({})), 5);
    });
    servers.push(s);
    const c = client(s.baseUrl, { limiter: new ConcurrencyLimiter(3) });
    await Promise.all(Array.from({ length: 30 }, () => c.read('x')));
    expect(s.maxInFlight).toBe(3);
    expect(s.connections).toBeLessThanOrEqual(3);
  });
});
