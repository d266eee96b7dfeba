import { describe, expect, it } from 'vitest';
import { PLAN_FORMAT_VERSION, type Change } from '../../src/core/plan.js';
import { planDifferences } from '../../src/planfile/compare.js';
import type { SavedPlan } from '../../src/planfile/planfile.js';
import { change, deepFreeze, east, plan } from '../core/builders.js';

// CI's re-plan path (examples/ci/scripts/replan.sh through `show --same-as`): a plan made again
// on the merge commit is applied only when planDifferences finds nothing.

const readers = (policies: string[], before: string[] = ['read']): Change =>
  change({ address: east('auth/ldap/groups/readers'), action: 'update', before: { policies: before }, after: { policies }, changedFields: ['policies'], dependsOn: [east('sys/auth/ldap')] });
const admins = (): Change => change({ address: east('auth/ldap/groups/admins'), action: 'create', after: { policies: ['admin'] }, changedFields: ['policies'], dependsOn: [east('sys/auth/ldap')] });

function saved(changes: Change[], more: Partial<SavedPlan> = {}): SavedPlan {
  return deepFreeze({
    formatVersion: PLAN_FORMAT_VERSION,
    kind: 'lockstep-plan',
    createdAt: '2024-01-01T00:00:00.000Z',
    manifestPaths: ['/m'],
    manifestDigest: 'abc',
    clusterAddresses: { east: 'https://east.example.com:8200' },
    options: { prune: false, targets: [], syncSecrets: false, allowUnreachablePrimary: false, force: false },
    fingerprints: {},
    plan: plan(changes),
    ...more,
  });
}

describe('planDifferences', () => {
  it('finds none for the same changes, whatever else the plans say (manifests, fingerprints, unmanaged objects, when)', () => {
    const reviewed = saved([admins(), readers(['read', 'audit'])]);
    const fresh = saved([admins(), readers(['read', 'audit'])], {
      manifestDigest: 'other',
      createdAt: '2025-01-01T00:00:00.000Z',
      fingerprints: { 'east:auth/ldap/groups/extra': 'f00d' },
      plan: { ...plan([admins(), readers(['read', 'audit'])]), unmanaged: [{ address: east('auth/ldap/users/x'), resourceType: 'ldap.user' }] },
    });
    expect(planDifferences(reviewed, fresh)).toEqual([]);
  });

  it('names a change more, a change gone, another action and other values, without the values', () => {
    const reviewed = saved([admins(), readers(['read', 'audit'])]);
    const fresh = saved([readers(['read', 'secret-policy']), change({ address: east('auth/ldap/groups/extra'), action: 'create', after: { policies: ['x'] } })]);
    const lines = planDifferences(reviewed, fresh);
    expect(lines).toEqual([
      '~ east:auth/ldap/groups/readers: update with other values of policies than reviewed',
      '+ east:auth/ldap/groups/extra (create): not in the reviewed plan',
      '- east:auth/ldap/groups/admins (create): reviewed, no longer planned',
    ]);
    expect(lines.join('\n')).not.toContain('secret-policy');
  });

  it('tells apart what the object was before the change (the reviewer saw another diff)', () => {
    expect(planDifferences(saved([readers(['read', 'audit'])]), saved([readers(['read', 'audit'], ['ops'])]))).toEqual([
      '~ east:auth/ldap/groups/readers: update with other values of policies than reviewed',
    ]);
  });

  it('tells apart an action, dependencies, and the order', () => {
    const deleted = { ...readers(['read']), action: 'delete' as const };
    expect(planDifferences(saved([readers(['read', 'audit'])]), saved([deleted]))).toEqual(['~ east:auth/ldap/groups/readers: reviewed as update, planned now as delete']);
    const noDeps = { ...readers(['read', 'audit']), dependsOn: [] };
    expect(planDifferences(saved([readers(['read', 'audit'])]), saved([noDeps]))).toEqual([
      '~ east:auth/ldap/groups/readers: update planned otherwise than reviewed (its dependencies, guards or notes)',
    ]);
    expect(planDifferences(saved([admins(), readers(['a'])]), saved([readers(['a']), admins()]))).toEqual(['the same changes, in another order']);
  });

  it('the same changes against other servers are not the reviewed ones', () => {
    expect(planDifferences(saved([admins()]), saved([admins()], { clusterAddresses: { east: 'https://elsewhere:8200' } }))).toEqual([
      'cluster "east": reviewed at https://east.example.com:8200, planned now at https://elsewhere:8200',
    ]);
  });
});
