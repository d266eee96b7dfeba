import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { redacting, type Output } from '../../src/commands/output.js';
import { withRequestProgress } from '../../src/commands/progress.js';

function output(withStatus: boolean): Output & { statuses: string[] } {
  const statuses: string[] = [];
  const sink = {
    out: () => undefined,
    err: () => undefined,
    color: false,
    interactive: false,
    prompt: async () => '',
    ...(withStatus ? { status: (t: string) => void statuses.push(t) } : {}),
  };
  return { ...redacting(sink), statuses };
}

/** A promise and the function that settles it. */
function pending<T>(): { promise: Promise<T>; resolve: (v: T) => void; reject: (e: Error) => void } {
  let resolve!: (v: T) => void;
  let reject!: (e: Error) => void;
  const promise = new Promise<T>((res, rej) => ((resolve = res), (reject = rej)));
  return { promise, resolve, reject };
}

beforeEach(() => vi.useFakeTimers());
afterEach(() => vi.useRealTimers());

describe('withRequestProgress', () => {
  it('says nothing for a quick read, then counts requests every tick, and clears its line at the end', async () => {
    const out = output(true);
    let requests = 0;
    const work = pending<string>();
    const result = withRequestProgress(out, () => requests, work.promise, { delayMs: 1000, everyMs: 250 });
    requests = 7;
    await vi.advanceTimersByTimeAsync(999);
    expect(out.statuses).toEqual([]);
    await vi.advanceTimersByTimeAsync(1);
    requests = 1234;
    await vi.advanceTimersByTimeAsync(250);
    work.resolve('plan');
    expect(await result).toBe('plan');
    expect(out.statuses).toEqual(['Reading live state: 7 requests sent…', 'Reading live state: 1,234 requests sent…', '']);
    await vi.advanceTimersByTimeAsync(5000);
    expect(out.statuses).toHaveLength(3);
  });

  it('never shows a line for work done before the delay, and clears it after a failure too', async () => {
    const quick = output(true);
    await withRequestProgress(quick, () => 1, Promise.resolve(1), { delayMs: 1000, everyMs: 250 });
    await vi.advanceTimersByTimeAsync(5000);
    expect(quick.statuses).toEqual([]);

    const failing = output(true);
    const work = pending<number>();
    const result = withRequestProgress(failing, () => 1, work.promise, { delayMs: 10, everyMs: 250 });
    await vi.advanceTimersByTimeAsync(10);
    work.reject(new Error('unreachable'));
    await expect(result).rejects.toThrow('unreachable');
    expect(failing.statuses).toEqual(['Reading live state: 1 request sent…', '']);
  });

  it('shows nothing where there is no terminal to show it on', async () => {
    const out = output(false);
    const work = pending<number>();
    const result = withRequestProgress(out, () => 3, work.promise, { delayMs: 10, everyMs: 10 });
    await vi.advanceTimersByTimeAsync(100);
    work.resolve(3);
    expect(await result).toBe(3);
    expect(out).not.toHaveProperty('status');
  });
});
