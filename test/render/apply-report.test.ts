import { describe, expect, it } from 'vitest';
import { renderApplyProgress, renderApplyReport } from '../../src/render/apply-report.js';
import { fullPlan } from './fixtures.js';
import { expectGolden } from './golden.js';

const [mount, config, group, bob] = fullPlan().changes as [never, never, never, never];

describe('apply progress', () => {
  it('renders start, done and failed lines', () => {
    expect(renderApplyProgress({ type: 'start', change: config })).toBe('  ~ east:auth/ldap/config ...');
    expect(renderApplyProgress({ type: 'done', change: config, elapsedMs: 12.4 })).toBe('  ~ east:auth/ldap/config ... done (12ms)');
    expect(renderApplyProgress({ type: 'done', change: config, elapsedMs: 1530 })).toBe('  ~ east:auth/ldap/config ... done (1.5s)');
    expect(
      renderApplyProgress({ type: 'failed', change: group, error: 'POST http://127.0.0.1:8200/v1/auth/ldap/groups/admins: 400 Bad Request:\nbad', elapsedMs: 3 }),
    ).toBe('  + east:auth/ldap/groups/admins ... failed: POST http://127.0.0.1:8200/v1/auth/ldap/groups/admins: 400 Bad Request:\\nbad');
  });

  it('colours only when asked', () => {
    expect(renderApplyProgress({ type: 'done', change: config, elapsedMs: 1 }, { color: true })).toContain('\u001b[');
    expect(renderApplyProgress({ type: 'done', change: config, elapsedMs: 1 })).not.toContain('\u001b');
  });
});

describe('apply report', () => {
  it('says complete when everything is done', () => {
    expect(renderApplyReport({ done: [mount, config], failed: [], notStarted: [] })).toBe('Apply complete: 2 done.');
  });

  it('lists done, failed and not started on failure (golden)', () => {
    const text = renderApplyReport({
      done: [mount],
      failed: [{ change: config, error: 'POST http://127.0.0.1:8200/v1/auth/ldap/config: 400 Bad Request: invalid userfilter: x' }],
      notStarted: [group, bob],
    });
    expect(text.split('\n')[0]).toBe('Apply failed: 1 done, 1 failed, 2 not started.');
    expectGolden('apply-failed.txt', text);
  });

  it('says the run was interrupted, by which signal, even when every change had started', () => {
    const text = renderApplyReport({ done: [mount], failed: [], notStarted: [group, bob] }, { color: false, interruptedBy: 'SIGTERM' });
    expect(text.split('\n')).toEqual([
      'Apply interrupted by SIGTERM: 1 done, 0 failed, 2 not started.',
      'Done:',
      '  + east:auth/ldap',
      'Not started:',
      '  + east:auth/ldap/groups/admins',
      '  - east:auth/ldap/users/bob',
      'Nothing was rolled back. Run apply again: it picks up from the live state.',
    ]);
    expect(renderApplyReport({ done: [mount], failed: [], notStarted: [] }, { color: false, interruptedBy: 'SIGINT' }).split('\n')[0]).toBe(
      'Apply interrupted by SIGINT: 1 done, 0 failed, 0 not started.',
    );
  });
});

