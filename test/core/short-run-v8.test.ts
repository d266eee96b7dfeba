import { describe, expect, it } from 'vitest';
import { INTERRUPT_BUDGET, tuneV8ForShortRun } from '../../src/core/short-run-v8.js';

describe('tuneV8ForShortRun', () => {
  it("sets V8's interrupt budget for the run", () => {
    const set: string[] = [];
    tuneV8ForShortRun(['--enable-source-maps'], (flags) => set.push(flags), '11.3.244.8-node.38');
    expect(set).toEqual([`--interrupt-budget=${INTERRUPT_BUDGET}`]);
  });

  it('leaves V8s it was not measured on alone (Node 24 has no such flag and would print an error)', () => {
    const set: string[] = [];
    tuneV8ForShortRun([], (flags) => set.push(flags), '13.6.233.10-node.24');
    tuneV8ForShortRun([], (flags) => set.push(flags), '12.4.254.21-node.33');
    expect(set).toEqual([]);
  });

  it('leaves a budget the user gave node as it is', () => {
    const set: string[] = [];
    tuneV8ForShortRun(['--interrupt-budget=1000'], (flags) => set.push(flags), '11.3.244.8-node.38');
    expect(set).toEqual([]);
  });
});
