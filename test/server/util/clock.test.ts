/**
 * The system clock (on vitest's fake timers) and the manual clock the tests drive servers with.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { systemClock } from '../../../src/server/util/clock.js';
import { ManualClock } from '../../support/manual-clock.js';

afterEach(() => vi.useRealTimers());

describe('systemClock', () => {
  it('reads the wall clock and fires a timer once its time has passed', async () => {
    vi.useFakeTimers();
    vi.setSystemTime(Date.parse('2030-01-01T00:00:00Z'));
    expect(systemClock.now()).toBe(Date.parse('2030-01-01T00:00:00Z'));
    const fire = vi.fn();
    systemClock.setTimer(1000, fire);
    await vi.advanceTimersByTimeAsync(999);
    expect(fire).not.toHaveBeenCalled();
    await vi.advanceTimersByTimeAsync(1);
    expect(fire).toHaveBeenCalledTimes(1);
  });

  it('never fires a cancelled timer', async () => {
    vi.useFakeTimers();
    const fire = vi.fn();
    const timer = systemClock.setTimer(1000, fire);
    timer.cancel();
    timer.cancel();
    await vi.advanceTimersByTimeAsync(5000);
    expect(fire).not.toHaveBeenCalled();
    expect(vi.getTimerCount()).toBe(0);
  });

  it('waits longer than setTimeout can (2^31-1 ms) by chaining, and cancels a chained wait', async () => {
    vi.useFakeTimers();
    const thirtyDays = 30 * 86_400_000;
    const fire = vi.fn();
    const cancelled = vi.fn();
    systemClock.setTimer(thirtyDays, fire);
    const timer = systemClock.setTimer(thirtyDays, cancelled);
    await vi.advanceTimersByTimeAsync(29 * 86_400_000);
    expect(fire).not.toHaveBeenCalled();
    timer.cancel();
    await vi.advanceTimersByTimeAsync(86_400_000);
    expect(fire).toHaveBeenCalledTimes(1);
    expect(cancelled).not.toHaveBeenCalled();
  });
});

describe('ManualClock', () => {
  it('fires what falls due in order, each at its own time, including timers those set', async () => {
    const clock = new ManualClock(1_000_000);
    const fired: Array<[string, number]> = [];
    clock.setTimer(300, () => fired.push(['b', clock.now()]));
    clock.setTimer(100, () => {
      fired.push(['a', clock.now()]);
      clock.setTimer(100, () => fired.push(['a2', clock.now()]));
    });
    clock.setTimer(300, () => fired.push(['c', clock.now()]));
    clock.setTimer(301, () => fired.push(['late', clock.now()]));
    await clock.advance(300);
    expect(fired).toEqual([
      ['a', 1_000_100],
      ['a2', 1_000_200],
      ['b', 1_000_300],
      ['c', 1_000_300],
    ]);
    expect(clock.now()).toBe(1_000_300);
    expect(clock.timerCount).toBe(1);
  });

  it('awaits the work a timer started before it goes on', async () => {
    const clock = new ManualClock();
    let done = false;
    clock.setTimer(10, async () => {
      await new Promise((r) => setImmediate(r));
      done = true;
    });
    await clock.advance(10);
    expect(done).toBe(true);
  });

  it('sets the wall clock without firing anything; cancelled timers never fire', async () => {
    const clock = new ManualClock(0);
    const fire = vi.fn();
    clock.setTimer(1000, fire);
    clock.setTimer(10, fire).cancel();
    clock.setWallTime(5_000_000);
    expect(clock.now()).toBe(5_000_000);
    expect(fire).not.toHaveBeenCalled();
    await clock.advance(1000);
    expect(fire).toHaveBeenCalledTimes(1);
    expect(clock.now()).toBe(5_001_000);
  });
});
