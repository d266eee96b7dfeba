import { describe, expect, it } from 'vitest';
import { IdleWork } from '../../src/engine/idle-work.js';

/** An IdleWork on a hand-cranked loop: `turn()` runs the slice it asked for; each task advances the clock by `costMs`. */
function cranked(costMs = 0.1) {
  let clock = 0;
  const pending: Array<() => void> = [];
  const work = new IdleWork({ sliceMs: 1, now: () => clock, schedule: (run) => pending.push(run) });
  const ran: number[] = [];
  const task = (n: number) => () => {
    clock += costMs;
    ran.push(n);
  };
  const turn = (): boolean => {
    const run = pending.shift();
    run?.();
    return run !== undefined;
  };
  return { work, ran, task, turn, pending };
}

describe('IdleWork: tasks in slices between the loop turns', () => {
  it('runs nothing until the loop turns, then tasks in order, a slice at a time', () => {
    const { work, ran, task, turn } = cranked(0.1);
    for (let i = 0; i < 40; i++) work.add(task(i));
    expect(ran).toEqual([]);
    turn();
    // The clock is read every 16 tasks: the first read past 1 ms is after task 16 (1.6 ms).
    expect(ran).toEqual([...Array(16).keys()]);
    turn();
    expect(ran).toHaveLength(32);
    turn();
    expect(ran).toEqual([...Array(40).keys()]);
    expect(turn()).toBe(false);
  });

  it('asks for one slice at a time, however many tasks come meanwhile', () => {
    const { work, task, pending } = cranked();
    work.add(task(1));
    work.add(task(2));
    expect(pending).toHaveLength(1);
  });

  it('finish runs what is left at once and throws the first error a task threw; later tasks still ran', () => {
    const { work, ran, task, turn } = cranked();
    work.add(task(1));
    work.add(() => {
      throw new Error('first');
    });
    work.add(() => {
      throw new Error('second');
    });
    work.add(task(4));
    expect(() => work.finish()).toThrow('first');
    expect(ran).toEqual([1, 4]);
    // The slice asked for earlier finds nothing left.
    turn();
    expect(ran).toEqual([1, 4]);
  });

  it('takes tasks again once drained', () => {
    const { work, ran, task, turn } = cranked();
    work.add(task(1));
    turn();
    work.add(task(2));
    turn();
    expect(ran).toEqual([1, 2]);
    work.finish();
  });
});
