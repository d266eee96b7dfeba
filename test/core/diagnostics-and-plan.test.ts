import { describe, expect, it } from 'vitest';
import { Diagnostics, formatDiagnostic } from '../../src/core/diagnostics.js';
import { summarise } from '../../src/core/plan.js';
import { change, east, plan } from './builders.js';

describe('Diagnostics', () => {
  it('formats as file:line:column: severity: message', () => {
    expect(formatDiagnostic({ severity: 'error', origin: 'manifest', message: 'unknown field "urll"', pos: { file: 'm/a.yaml', line: 3, column: 5 } })).toBe(
      'm/a.yaml:3:5: error: unknown field "urll"',
    );
    expect(formatDiagnostic({ severity: 'warning', origin: 'manifest', message: 'no position' })).toBe('warning: no position');
  });

  it('keeps every problem and prints them sorted by file, line, column, positionless last', () => {
    const d = new Diagnostics();
    d.error('late', { file: 'b.yaml', line: 1, column: 1 });
    d.error('nowhere');
    d.warning('col 9', { file: 'a.yaml', line: 2, column: 9 });
    d.error('col 3', { file: 'a.yaml', line: 2, column: 3 });
    d.error('line 1', { file: 'a.yaml', line: 1, column: 7 });
    expect(d.format()).toEqual([
      'a.yaml:1:7: error: line 1',
      'a.yaml:2:3: error: col 3',
      'a.yaml:2:9: warning: col 9',
      'b.yaml:1:1: error: late',
      'error: nowhere',
    ]);
    expect(d.errors).toHaveLength(4);
    expect(d.warnings).toHaveLength(1);
    expect(d.hasErrors()).toBe(true);
  });

  it('has no errors with only warnings, and appends another collection', () => {
    const d = new Diagnostics();
    d.warning('w');
    expect(d.hasErrors()).toBe(false);
    const other = new Diagnostics();
    other.error('e');
    d.append(other);
    expect(d.hasErrors()).toBe(true);
    expect(d.items.map((i) => i.message)).toEqual(['w', 'e']);
  });
});

describe('summarise', () => {
  it('counts each action', () => {
    const p = plan([
      change({ address: east('a'), action: 'create' }),
      change({ address: east('b'), action: 'create' }),
      change({ address: east('c'), action: 'update' }),
      change({ address: east('d'), action: 'delete' }),
      change({ address: east('e'), action: 'transition' }),
    ]);
    expect(summarise(p)).toEqual({ add: 2, change: 1, delete: 1, transition: 1, destructive: 0 });
    expect(summarise(plan([]))).toEqual({ add: 0, change: 0, delete: 0, transition: 0, destructive: 0 });
  });

  it('counts the destructive ones across actions, besides their action', () => {
    const p = plan([change({ address: east('a'), action: 'delete', destructive: true }), change({ address: east('b'), action: 'transition', destructive: true }), change({ address: east('c'), action: 'delete' })]);
    expect(summarise(p)).toEqual({ add: 0, change: 0, delete: 2, transition: 1, destructive: 2 });
  });
});
