import { describe, expect, it } from 'vitest';
import { forEachBounded } from '../../src/client/each-bounded.js';

const tick = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

describe('forEachBounded', () => {
  it('visits every item once, never more than `limit` at a time', async () => {
    let running = 0;
    let peak = 0;
    const seen: number[] = [];
    await forEachBounded([...Array(50).keys()], 4, async (i) => {
      running++;
      peak = Math.max(peak, running);
      await tick();
      seen.push(i);
      running--;
    });
    expect(peak).toBe(4);
    expect([...seen].sort((a, b) => a - b)).toEqual([...Array(50).keys()]);
  });

  it('resolves at once for no items', async () => {
    await expect(forEachBounded([], 3, async () => undefined)).resolves.toBeUndefined();
  });

  it('rejects with the first error and starts nothing after it', async () => {
    const started: number[] = [];
    const run = forEachBounded([0, 1, 2, 3, 4, 5], 2, async (i) => {
      started.push(i);
      await tick();
      if (i === 1) throw new Error('item 1 failed');
    });
    await expect(run).rejects.toThrow('item 1 failed');
    await tick();
    await tick();
    expect(started.length).toBeLessThanOrEqual(3);
  });

  it('refuses a limit that would start nothing, rather than resolving silently', async () => {
    await expect(forEachBounded([1], 0, async () => undefined)).rejects.toThrow(RangeError);
    await expect(forEachBounded([1], undefined as unknown as number, async () => undefined)).rejects.toThrow(RangeError);
  });
});
