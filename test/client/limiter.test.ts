import { describe, expect, it } from 'vitest';
import { AUTO, ConcurrencyLimiter } from '../../src/client/limiter.js';

const tick = (ms = 1): Promise<void> => new Promise((r) => setTimeout(r, ms));

describe('ConcurrencyLimiter', () => {
  it('never runs more than n at once and starts tasks in submission order', async () => {
    const limiter = new ConcurrencyLimiter(3);
    let running = 0;
    let max = 0;
    const started: number[] = [];
    const tasks = Array.from({ length: 50 }, (_, i) =>
      limiter.run(async () => {
        started.push(i);
        running++;
        max = Math.max(max, running);
        await tick(i % 3);
        running--;
        return i;
      }),
    );
    expect(limiter.active).toBe(3);
    expect(limiter.pending).toBe(47);
    expect(await Promise.all(tasks)).toEqual(Array.from({ length: 50 }, (_, i) => i));
    expect(max).toBe(3);
    expect(started).toEqual(Array.from({ length: 50 }, (_, i) => i));
    expect(limiter.active).toBe(0);
    expect(limiter.pending).toBe(0);
  });

  it('releases the slot when a task fails or throws synchronously', async () => {
    const limiter = new ConcurrencyLimiter(1);
    await expect(limiter.run(async () => Promise.reject(new Error('boom')))).rejects.toThrow('boom');
    await expect(
      limiter.run(() => {
        throw new Error('sync');
      }),
    ).rejects.toThrow('sync');
    expect(await limiter.run(async () => 'ok')).toBe('ok');
    expect(limiter.active).toBe(0);
  });

  it('handles long queues (more than its compaction threshold)', async () => {
    const limiter = new ConcurrencyLimiter(2);
    const results = await Promise.all(Array.from({ length: 5000 }, (_, i) => limiter.run(async () => i)));
    expect(results[4999]).toBe(4999);
    expect(limiter.active).toBe(0);
  });

  it('refuses a size that is not a positive integer', () => {
    expect(() => new ConcurrencyLimiter(0)).toThrow(/positive integer/);
    expect(() => new ConcurrencyLimiter(1.5)).toThrow(/positive integer/);
  });

  it('#16.2: an adaptive limiter starts no new task while more run than its limit after a refusal, and reports what it did', async () => {
    let now = 0;
    const limiter = new ConcurrencyLimiter(AUTO, () => now);
    const gates: Array<(outcome: 'ok' | 'refused') => void> = [];
    const started: number[] = [];
    const tasks = Array.from({ length: 40 }, (_, i) =>
      limiter.run(
        () => {
          started.push(i);
          return new Promise<'ok' | 'refused'>((resolve) => gates.push(resolve));
        },
        (value) => (value === 'refused' ? 'dropped' : 'ok'),
      ),
    );
    expect([limiter.active, limiter.pending, limiter.limit]).toEqual([16, 24, 16]);
    now = 20;
    // The 16th in flight is refused: the limit falls below 16, the 15 others run on.
    gates[15]!('refused');
    await tasks[15];
    expect(limiter.limit).toBe(14);
    expect(limiter.active).toBe(15);
    expect(started).toHaveLength(16);
    gates[0]!('ok');
    await tasks[0];
    expect(limiter.active).toBe(14);
    expect(started).toHaveLength(16);
    gates[1]!('ok');
    await tasks[1];
    // Below the limit again: the next in line (FIFO) starts.
    expect(started).toEqual(Array.from({ length: 17 }, (_, i) => i));
    expect(limiter.active).toBe(14);
    // Let everything finish, one answer at a time.
    for (let i = 2; i < 40; i++) {
      while (gates[i] === undefined) await Promise.resolve();
      gates[i]!('ok');
      await tasks[i];
    }
    expect(started).toEqual(Array.from({ length: 40 }, (_, i) => i));
    expect(limiter.report()).toEqual({ setting: AUTO, limit: 14, peak: 16, dropped: 1 });
    expect(limiter.size).toBe(256);
  });
});
