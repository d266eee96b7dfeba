import { describe, expect, it } from 'vitest';
import { PLAN_FORMAT_VERSION, type Change, type Plan } from '../../src/core/plan.js';
import { applyToJson, type ApplyRecord } from '../../src/render/apply-json.js';
import { change, create, del, east } from '../core/builders.js';

const mount = create('sys/auth/ldap');
const group = create('auth/ldap/groups/admins', 'sys/auth/ldap');
const user = change({ address: east('auth/ldap/users/bob'), action: 'update', resourceType: 'ldap.user' });
const gone = del('auth/ldap/users/old');

const plan = (...changes: Change[]): Plan => ({ formatVersion: PLAN_FORMAT_VERSION, changes, unmanaged: [], notes: [] });
const record = (over: Partial<ApplyRecord>): ApplyRecord => ({ plan: undefined, outcome: undefined, diagnostics: [], refusal: undefined, ...over });

describe('the apply as one JSON document', () => {
  it("every change in the plan's order with its outcome, a failure with its error; the counts by action and by outcome", () => {
    const json = applyToJson(
      record({
        plan: plan(mount, group, user, gone),
        outcome: { done: [mount, user], failed: [{ change: group, error: 'POST http://x/v1/auth/ldap/groups/admins: 500 Internal Server Error: storage exploded' }], notStarted: [gone] },
      }),
    );
    expect(json).toEqual({
      formatVersion: PLAN_FORMAT_VERSION,
      result: 'failed',
      changes: [
        { address: 'east:sys/auth/ldap', resourceType: 'test.object', action: 'create', reason: 'declared', destructive: false, outcome: 'applied' },
        {
          address: 'east:auth/ldap/groups/admins',
          resourceType: 'test.object',
          action: 'create',
          reason: 'declared',
          destructive: false,
          outcome: 'failed',
          error: 'POST http://x/v1/auth/ldap/groups/admins: 500 Internal Server Error: storage exploded',
        },
        { address: 'east:auth/ldap/users/bob', resourceType: 'ldap.user', action: 'update', reason: 'declared', destructive: false, outcome: 'applied' },
        { address: 'east:auth/ldap/users/old', resourceType: 'test.object', action: 'delete', reason: 'prune', destructive: false, outcome: 'skipped' },
      ],
      summary: { add: 2, change: 1, delete: 1, destructive: 0, transition: 0, applied: 2, failed: 1, skipped: 1 },
      diagnostics: [],
    });
  });

  it('applied when every change was made; no-changes for an empty plan', () => {
    expect(applyToJson(record({ plan: plan(mount), outcome: { done: [mount], failed: [], notStarted: [] } })).result).toBe('applied');
    expect(applyToJson(record({ plan: plan() }))).toMatchObject({ result: 'no-changes', changes: [], summary: { applied: 0, skipped: 0 } });
  });

  it('refused: nothing ran, every planned change skipped, and what refused it said once', () => {
    const refused = applyToJson(record({ plan: plan(mount, gone), refusal: 'refusing to apply: 1 destructive action' }));
    expect(refused.result).toBe('refused');
    expect(refused.changes.map((c) => c.outcome)).toEqual(['skipped', 'skipped']);
    expect(refused.diagnostics).toEqual([{ severity: 'error', origin: 'manifest', message: 'refusing to apply: 1 destructive action' }]);
    // Before any plan: no changes at all.
    expect(applyToJson(record({ refusal: 'no approval' }))).toMatchObject({ result: 'refused', changes: [], summary: { add: 0, skipped: 0 } });
  });

  it('errors among the diagnostics are the refusal: its summary line is not added; they come in the order stderr prints them', () => {
    const json = applyToJson(
      record({
        diagnostics: [
          { severity: 'error', origin: 'manifest', message: 'b', pos: { file: 'm/b.yaml', line: 3, column: 1 } },
          { severity: 'error', origin: 'manifest', message: 'read failed', subject: 'east:auth/ldap/config' },
          { severity: 'warning', origin: 'manifest', message: 'a', pos: { file: 'm/a.yaml', line: 9, column: 5 } },
        ],
        refusal: '2 errors in the manifests; nothing was sent to any server',
      }),
    );
    expect(json.diagnostics).toEqual([
      { severity: 'warning', origin: 'manifest', message: 'a', file: 'm/a.yaml', line: 9, column: 5 },
      { severity: 'error', origin: 'manifest', message: 'b', file: 'm/b.yaml', line: 3, column: 1 },
      { severity: 'error', origin: 'manifest', message: 'read failed', subject: 'east:auth/ldap/config' },
    ]);
  });

  it('interrupted: what was made applied, the rest skipped, the signal said among the diagnostics (the environment\'s)', () => {
    const during = applyToJson(record({ plan: plan(mount, group), outcome: { done: [mount], failed: [], notStarted: [group] }, interruptedBy: 'SIGTERM' }));
    expect(during).toMatchObject({ result: 'interrupted', summary: { applied: 1, skipped: 1, failed: 0 } });
    expect(during.diagnostics).toEqual([
      { severity: 'error', origin: 'environment', message: 'interrupted by SIGTERM: no new change was started; the changes in flight were let finish' },
    ]);
    const before = applyToJson(record({ plan: plan(mount), interruptedBy: 'SIGINT' }));
    expect(before).toMatchObject({ result: 'interrupted', summary: { applied: 0, skipped: 1 } });
    expect(before.diagnostics).toEqual([{ severity: 'error', origin: 'environment', message: 'interrupted by SIGINT before any change started; nothing was changed' }]);
  });
});

