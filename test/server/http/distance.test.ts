import { afterEach, describe, expect, it } from 'vitest';
import { parseLatency, parseRateLimit } from '../../../src/commands/serve.js';
import { Distance } from '../../../src/server/http/distance.js';
import { startServer, type RunningServer } from '../../../src/server/index.js';

const TOKEN = 'distance-root-token';

/** A latency whose waits end when the test says: time is injected, never slept on. */
function manualLatency() {
  const waiting: Array<{ ms: number; go: () => void }> = [];
  return {
    waiting,
    wait: (ms: number) => new Promise<void>((go) => waiting.push({ ms, go })),
    releaseAll: () => waiting.splice(0).forEach((w) => w.go()),
    /** Resolves once `n` requests wait (they reached the server). */
    until: async (n: number) => {
      while (waiting.length < n) await new Promise((r) => setImmediate(r));
    },
  };
}

let server: RunningServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

const get = (base: string, path: string) => fetch(`${base}/${path}`, { headers: { 'X-Vault-Token': TOKEN } });

describe('serve --rate-limit (issue 16)', () => {
  it('#16.1: beyond N requests in flight the answer is the quota\'s 429 with Retry-After (vault/quotas/quotas_rate_limit.go, http/util.go rateLimitQuotaWrapping)', async () => {
    const latency = manualLatency();
    server = await startServer({ port: 0, rootToken: TOKEN, latencyMs: 20, rateLimit: 2, wait: latency.wait });
    const base = server.clusters[0]!.baseUrl;
    const answers = [get(base, 'sys/mounts'), get(base, 'sys/auth'), get(base, 'sys/policy')];
    await latency.until(3);
    // The latency is the one configured, for the refused answer too.
    expect(latency.waiting.map((w) => w.ms)).toEqual([20, 20, 20]);
    latency.releaseAll();
    const [a, b, refused] = await Promise.all(answers);
    expect([a!.status, b!.status]).toEqual([200, 200]);
    expect(refused!.status).toBe(429);
    // As the service answers with enable_rate_limit_response_headers on: whole seconds to reset,
    // truncated (int(time.Until(reset).Seconds())), so 0 below a second.
    expect(refused!.headers.get('retry-after')).toBe('0');
    expect(refused!.headers.get('x-ratelimit-limit')).toBe('2');
    expect(refused!.headers.get('x-ratelimit-remaining')).toBe('0');
    expect(await refused!.json()).toEqual({ errors: ['request path "sys/policy": rate limit quota exceeded'] });
    expect(server.stats().refused).toBe(1);

    // The slots free once the answers have gone: the next two are admitted.
    const next = [get(base, 'sys/mounts'), get(base, 'sys/auth')];
    await latency.until(2);
    latency.releaseAll();
    expect((await Promise.all(next)).map((r) => r.status)).toEqual([200, 200]);
  });

  it('#16.1: the quota reads the canonical path and exempts what the service exempts (vault/quotas/quotas.go defaultExemptPaths)', async () => {
    const latency = manualLatency();
    server = await startServer({ port: 0, rootToken: TOKEN, rateLimit: 1, wait: latency.wait });
    const base = server.clusters[0]!.baseUrl;
    const answers = [get(base, 'sys/mounts'), get(base, 'sys/health'), fetch(`${base}/sys//mounts/`, { redirect: 'manual' }), get(base, 'sys/auth')];
    await latency.until(4);
    latency.releaseAll();
    const statuses = (await Promise.all(answers)).map((r) => r.status);
    // sys/health is exempt; the redirect of a path to clean takes no slot; sys/auth is refused.
    expect(statuses).toEqual([200, 200, 301, 429]);
  });
});

describe('serve --latency (issue 16)', () => {
  it('#16.1: no answer leaves before the latency has passed, whatever it is', async () => {
    const latency = manualLatency();
    server = await startServer({ port: 0, rootToken: TOKEN, latencyMs: 50, wait: latency.wait });
    const base = server.clusters[0]!.baseUrl;
    let answered = 0;
    const answers = [get(base, 'sys/mounts'), get(base, 'no/such/path'), fetch(`${base}/sys/mounts`)].map((p) => p.then((r) => (answered++, r.status)));
    await latency.until(3);
    for (let i = 0; i < 20; i++) await new Promise((r) => setImmediate(r));
    expect(answered).toBe(0);
    latency.releaseAll();
    expect(await Promise.all(answers)).toEqual([200, 404, 403]);
  });

  it('#16.1: without --latency or --rate-limit nothing waits', async () => {
    const latency = manualLatency();
    server = await startServer({ port: 0, rootToken: TOKEN, wait: latency.wait });
    expect((await get(server.clusters[0]!.baseUrl, 'sys/mounts')).status).toBe(200);
    expect(latency.waiting).toEqual([]);
  });

  it('Retry-After counts whole seconds until a slot frees, truncated', () => {
    const d = new Distance({ latencyMs: 2500, rateLimit: 1 });
    expect(d.admit('a').kind).toBe('admitted');
    const refused = d.admit('a');
    expect(refused.kind === 'refused' && refused.headers['Retry-After']).toBe('2');
    expect(d.inFlight).toBe(1);
  });

  it('the flags take whole numbers in range only', () => {
    expect(parseLatency('20')).toBe(20);
    expect(parseLatency('0')).toBe(0);
    for (const bad of ['', '-1', '1.5', '20ms', '60001', '0x10', ' 20']) expect(() => parseLatency(bad)).toThrow(/--latency must be a whole number from 0 to 60000/);
    expect(parseRateLimit('64')).toBe(64);
    for (const bad of ['', '0', '-3', '2.5', 'many', '1e3']) expect(() => parseRateLimit(bad)).toThrow(/--rate-limit must be a whole number from 1 to 1000000/);
  });
});
