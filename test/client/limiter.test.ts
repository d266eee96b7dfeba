import { describe, expect, it } from 'vitest';
import { ConcurrencyLimiter } from '../../src/client/limiter.js';

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
});
