import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ClusterClientPool, concurrencySummary, withClientPool } from '../../src/commands/clients.js';
import { RedactionSet } from '../../src/core/redaction.js';
import { Secret } from '../../src/core/secret.js';
import { startServer, type RunningServer } from '../../src/server/index.js';

let server: RunningServer;
beforeAll(async () => {
  server = await startServer({ port: 0, rootToken: 'clients-test' });
});
afterAll(async () => {
  await server.close();
});

function pool(concurrency: ConstructorParameters<typeof ClusterClientPool>[1]): ClusterClientPool {
  const target = { name: 'east', address: server.clusters[0]!.baseUrl, auth: { method: 'token' as const, token: new Secret('clients-test', 'env:T') }, authSource: 'test', insecureSkipVerify: false };
  return new ClusterClientPool(new Map([['east', target]]), concurrency);
}

describe('the concurrency summary on stderr', () => {
  it('one line per cluster that was sent requests, the count with separators and in the singular for one', async () => {
    const one = pool({ kind: 'fixed', size: 4 });
    await one.get('east').read('sys/health');
    expect(concurrencySummary(one, true)).toEqual(['concurrency: east: fixed at 4 (peak 1 in flight, 0 refused or timed out), 1 request']);
    const many = pool({ kind: 'auto' });
    await Promise.all(Array.from({ length: 1001 }, () => many.get('east').read('sys/health')));
    expect(concurrencySummary(many, true)).toEqual([expect.stringMatching(/^concurrency: east: auto settled at \d+ \(peak \d+ in flight, 0 refused or timed out\), 1,001 requests$/)]);
    expect(concurrencySummary(pool({ kind: 'auto' }), true)).toEqual([]);
  });

  it('is quiet without --verbose, unless a cluster refused requests or let them time out', async () => {
    const quiet = pool({ kind: 'auto' });
    await quiet.get('east').read('sys/health');
    expect(concurrencySummary(quiet, false)).toEqual([]);
    const limited = await startServer({ port: 0, rootToken: 'clients-test', rateLimit: 5, latencyMs: 20 });
    try {
      const target = { name: 'east', address: limited.clusters[0]!.baseUrl, auth: { method: 'token' as const, token: new Secret('clients-test', 'env:T') }, authSource: 'test', insecureSkipVerify: false };
      const refused = new ClusterClientPool(new Map([['east', target]]), { kind: 'auto' }, { retries: 0 });
      await Promise.allSettled(Array.from({ length: 64 }, () => refused.get('east').read('sys/mounts')));
      expect(concurrencySummary(refused, false)).toEqual([expect.stringMatching(/^concurrency: east: auto settled at \d+ \(peak \d+ in flight, [1-9]\d* refused or timed out\), 64 requests$/)]);
    } finally {
      await limited.close();
    }
  });

  it('an apply with the adaptive default starts what the clients ask for now: twice the starting limit of 16 before any request', () => {
    expect(pool({ kind: 'auto' }).applyConcurrency(['east'])).toBe(32);
    expect(pool({ kind: 'fixed', size: 8 }).applyConcurrency(['east'])).toBe(8);
  });

  it("counts only the clusters that still have changes to start: another cluster's share would only queue more of these", () => {
    const target = (name: string) => ({ name, address: server.clusters[0]!.baseUrl, auth: { method: 'token' as const, token: new Secret('clients-test', 'env:T') }, authSource: 'test', insecureSkipVerify: false });
    const three = new ClusterClientPool(new Map(['east', 'west', 'north'].map((n) => [n, target(n)])), { kind: 'fixed', size: 8 });
    expect(three.applyConcurrency(['east', 'west', 'north'])).toBe(24);
    expect(three.applyConcurrency(['west'])).toBe(8);
    // Nothing left to start anywhere: still one, so the applier's loop reads a positive limit.
    expect(three.applyConcurrency([])).toBe(1);
  });
});

describe('the request log of a pool', () => {
  const targets = () =>
    new Map([['east', { name: 'east', address: server.clusters[0]!.baseUrl, auth: { method: 'token' as const, token: new Secret('clients-test', 'env:T') }, authSource: 'test', insecureSkipVerify: false }]]);

  it('at debug, one line per request the pool counts, through the redaction set; below debug, none', async () => {
    const lines: string[] = [];
    const output = { redaction: new RedactionSet(['clients-test']), err: (line: string) => void lines.push(output.redaction.redact(line)) };
    const counted = await withClientPool(targets(), { logLevel: 'debug' }, output, async (pool) => {
      await Promise.all([pool.get('east').read('sys/health'), pool.get('east').read('sys/auth'), pool.get('east').read('auth/clients-test/config')]);
      return pool.requestCount;
    });
    expect(lines).toHaveLength(counted);
    expect(lines).toEqual(expect.arrayContaining([expect.stringMatching(/^debug: east: GET auth\/\(sensitive\)\/config -> \d{3} in \d+ms$/)]));
    for (const level of ['error', 'warn', 'info'] as const) {
      const quiet: string[] = [];
      await withClientPool(targets(), { logLevel: level }, { redaction: new RedactionSet(), err: (line) => void quiet.push(line) }, (pool) => pool.get('east').read('sys/health'));
      expect(quiet).toEqual([]);
    }
  });
});
