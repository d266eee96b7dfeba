import { describe, expect, it } from 'vitest';
import { AdaptiveLimit, FixedLimit, type Outcome } from '../../src/client/adaptive-limit.js';

/**
 * A synthetic server, round by round on a clock of its own (no sleeps): each round the client
 * sends as many requests as its limit allows, all at once; each is answered after `latency(n)`
 * with n in flight, or refused when `refuse(i)` says so for the i-th in flight.
 */
function drive(
  limit: AdaptiveLimit,
  rounds: number,
  server: { latency: (inFlight: number) => number; refuse?: (ith: number) => boolean; send?: (limit: number) => number },
): { limits: number[]; sent: number; refused: number } {
  let now = 0;
  const limits: number[] = [];
  let sent = 0;
  let refused = 0;
  for (let r = 0; r < rounds; r++) {
    const n = server.send ? server.send(limit.limit) : limit.limit;
    const rtt = server.latency(n);
    for (let i = 1; i <= n; i++) {
      const outcome: Outcome = server.refuse?.(i) ? 'dropped' : 'ok';
      sent++;
      if (outcome === 'dropped') refused++;
      // A little spread, as real answers have: the i-th comes a hair later.
      limit.onSample({ startedAt: now, endedAt: now + rtt + i * 0.001, inFlight: i, outcome });
    }
    now += rtt + n * 0.001 + 0.01;
    limits.push(limit.limit);
  }
  return { limits, sent, refused };
}

describe('the adaptive concurrency limit (issue 16.2)', () => {
  it('#16.2: starts at 16 and, while latency stays flat, grows to its bound of 256 within a few round trips', () => {
    const limit = new AdaptiveLimit();
    expect(limit.limit).toBe(16);
    const { limits } = drive(limit, 40, { latency: () => 20 });
    expect(limits.at(-1)).toBe(256);
    // Slow start: 256 within a dozen rounds, not a hundred.
    expect(limits.findIndex((l) => l === 256)).toBeLessThan(16);
    expect(Math.max(...limits)).toBe(256);
  });

  it('#16.2: when latency climbs (a queue building past the server\'s pace) it settles near the knee', () => {
    // Latency flat up to 100 in flight, then rising with every request more.
    const knee = 100;
    const limit = new AdaptiveLimit();
    const { limits } = drive(limit, 300, { latency: (n) => 20 * Math.max(1, n / knee) });
    const settled = limits.slice(-100);
    expect(Math.min(...settled)).toBeGreaterThanOrEqual(knee * 0.5);
    // Up to TOLERANCE (2) times the latency is taken as flat, and one step past it.
    expect(Math.max(...settled)).toBeLessThanOrEqual(knee * 2.1);
  });

  it('#16.2: on loopback, where the server answers one request at a time, it stays at 16: more in flight would only queue', () => {
    const limit = new AdaptiveLimit();
    let now = 0;
    const limits: number[] = [];
    for (let round = 0; round < 200; round++) {
      const n = limit.limit;
      // 0.1 ms of work each, one after another: the i-th answer comes i × 0.1 ms after it went.
      for (let i = 1; i <= n; i++) limit.onSample({ startedAt: now, endedAt: now + i * 0.1, inFlight: i, outcome: 'ok' });
      now += n * 0.1 + 0.01;
      limits.push(limit.limit);
    }
    expect(new Set(limits)).toEqual(new Set([16]));
  });

  it('#16.2: on loopback, the first round trips (each opening its connection, all alike) are not taken for a server that keeps pace: it never grows past 16', () => {
    const limit = new AdaptiveLimit();
    let now = 0;
    let connections = 0;
    const limits: number[] = [];
    for (let round = 0; round < 200; round++) {
      const n = limit.limit;
      for (let i = 1; i <= n; i++) {
        // A request on a connection not yet open pays 1 ms to open it, ten times its own work,
        // and that cost (the same for all) hides the queue behind it.
        const connect = i > connections ? 1 : 0;
        limit.onSample({ startedAt: now, endedAt: now + connect + i * 0.1, inFlight: i, outcome: 'ok' });
      }
      connections = Math.max(connections, n);
      now += 1 + n * 0.1 + 0.01;
      limits.push(limit.limit);
    }
    expect(Math.max(...limits)).toBe(16);
  });

  it('#16.2: a refusal in the first window ends the warm-up: the next window decides', () => {
    const limit = new AdaptiveLimit();
    for (let i = 1; i <= 10; i++) limit.onSample({ startedAt: 0, endedAt: 20, inFlight: i, outcome: 'ok' });
    limit.onSample({ startedAt: 0, endedAt: 21, inFlight: 16, outcome: 'dropped' });
    const afterRefusal = limit.limit;
    expect(afterRefusal).toBeLessThan(16);
    // Flat answers under the new limit, all sent after the refusal. It is at the ceiling the
    // refusal taught, so it probes one past it every eight windows: after eight, it has, unless
    // the first of them was thrown away as a warm-up (its connections were already open).
    for (let w = 0; w < 8; w++) {
      const t = 30 + w * 30;
      for (let i = 1; i <= limit.limit; i++) limit.onSample({ startedAt: t, endedAt: t + 20, inFlight: i, outcome: 'ok' });
    }
    expect(limit.limit).toBeGreaterThan(afterRefusal);
  });

  it('#16.2: against a quota of 64 in flight, it backs off below the quota at the first 429 and refuses under 1% after', () => {
    const quota = 64;
    const limit = new AdaptiveLimit();
    const { limits, sent, refused } = drive(limit, 400, { latency: () => 20, refuse: (i) => i > quota });
    expect(refused / sent).toBeLessThan(0.01);
    const steady = limits.slice(50);
    expect(Math.max(...steady)).toBeLessThanOrEqual(quota + 1);
    // Close to the quota on average: the quota's pace, not half of it.
    expect(steady.reduce((a, b) => a + b, 0) / steady.length).toBeGreaterThan(quota * 0.85);
  });

  it('#16.2: a server that refuses everything (503s) brings it down to 1, and no lower', () => {
    const limit = new AdaptiveLimit();
    const { limits } = drive(limit, 60, { latency: () => 5, refuse: () => true });
    expect(limits.at(-1)).toBe(1);
    expect(Math.min(...limits)).toBe(1);
  });

  it('#16.2: a caller with less to send than the limit (an apply waiting on its order) does not grow it', () => {
    const limit = new AdaptiveLimit();
    const { limits } = drive(limit, 50, { latency: () => 20, send: () => 4 });
    expect(limits.at(-1)).toBe(16);
  });

  it('#16.2: answers to requests sent under an earlier limit do not count twice', () => {
    const limit = new AdaptiveLimit();
    // Two refusals of the same burst: one back-off, from the in flight of the first.
    limit.onSample({ startedAt: 0, endedAt: 10, inFlight: 16, outcome: 'dropped' });
    const after = limit.limit;
    limit.onSample({ startedAt: 0, endedAt: 11, inFlight: 16, outcome: 'dropped' });
    expect(after).toBe(14);
    expect(limit.limit).toBe(after);
    // Failures that say nothing of load change nothing.
    limit.onSample({ startedAt: 12, endedAt: 13, inFlight: 1, outcome: 'ignored' });
    expect(limit.limit).toBe(after);
  });

  it('bounds are checked; a fixed limit never moves', () => {
    expect(() => new AdaptiveLimit({ initial: 0 })).toThrow(RangeError);
    expect(() => new AdaptiveLimit({ min: 8, max: 4 })).toThrow(RangeError);
    const fixed = new FixedLimit(16);
    fixed.onSample();
    expect([fixed.limit, fixed.max]).toEqual([16, 16]);
  });
});
