import { describe, expect, it } from 'vitest';
import { INTERRUPT_BUDGET, tuneV8ForShortRun } from '../../src/core/short-run-v8.js';

describe('tuneV8ForShortRun', () => {
  it("sets V8's interrupt budget for the run", () => {
    const set: string[] = [];
    tuneV8ForShortRun(['--enable-source-maps'], (flags) => set.push(flags));
    expect(set).toEqual([`--interrupt-budget=${INTERRUPT_BUDGET}`]);
  });

  it('leaves a budget the user gave node as it is', () => {
    const set: string[] = [];
    tuneV8ForShortRun(['--interrupt-budget=1000'], (flags) => set.push(flags));
    expect(set).toEqual([]);
  });
});
