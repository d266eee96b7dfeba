import { describe, expect, it } from 'vitest';
import { stepOfChange } from '../../../src/kinds/dr-replication/step-of-change.js';
import { stepAddress } from '../../../src/kinds/dr-replication/steps.js';
import { addresses, DISABLED, DOWN, planFor, primaryStatus, refusals, secondaryStatus, SHARE_TEXTS } from './fixtures.js';

const E = 'https://east:8201';
const W = 'https://west:8201';
const shares = { keyShares: SHARE_TEXTS };
const steady = {
  east: primaryStatus('C1', ['west', 'south'], E),
  west: secondaryStatus('C1', 'west', E),
  south: secondaryStatus('C1', 'south', E),
};

describe('bootstrap', () => {
  const plan = planFor({ primary: 'east', secondaries: ['west', 'south'], ...shares }, { east: DISABLED, west: DISABLED, south: DISABLED });

  it('enables the primary, then per secondary: key pair, activation token, enable', () => {
    expect(refusals(plan)).toEqual([]);
    expect(addresses(plan)).toEqual([
      'east:sys/replication/dr/primary/enable',
      'west:sys/replication/dr/secondary/generate-public-key',
      'east:sys/replication/dr/primary/secondary-token/west',
      'west:sys/replication/dr/secondary/enable',
      'south:sys/replication/dr/secondary/generate-public-key',
      'east:sys/replication/dr/primary/secondary-token/south',
      'south:sys/replication/dr/secondary/enable',
    ]);
  });

  it('chains every step on the one before (strictly sequential)', () => {
    plan.changes.forEach((c, i) => {
      expect(c.action).toBe('transition');
      expect(c.reason).toBe('step');
      expect(c.dependsOn.map(String)).toEqual(i === 0 ? [] : [plan.changes[i - 1]!.address.toString()]);
    });
  });

  it('marks only the secondary enables destructive, with a note saying what is wiped', () => {
    const destructive = plan.changes.filter((c) => c.destructive).map((c) => c.address.toString());
    expect(destructive).toEqual(['west:sys/replication/dr/secondary/enable', 'south:sys/replication/dr/secondary/enable']);
    expect(plan.changes[3]!.notes[0]).toBe('wipes all data on west: it becomes a DR secondary of east');
  });

  it('guards each step with the expected modes of the clusters involved', () => {
    const enable = plan.changes[0]!;
    expect(enable.guards.map((g) => [g.address.toString(), g.expect])).toEqual([
      ['east:sys/replication/dr/status', { mode: 'disabled' }],
      ['south:sys/replication/dr/status', { mode: 'disabled' }],
      ['west:sys/replication/dr/status', { mode: 'disabled' }],
    ]);
    const join = plan.changes[3]!;
    expect(join.guards.map((g) => [g.address.toString(), g.expect])).toEqual([
      ['west:sys/replication/dr/status', { mode: 'disabled' }],
      // The new primary's cluster id is unknown until apply: the guard checks the mode only.
      ['east:sys/replication/dr/status', { mode: 'primary' }],
    ]);
  });

  it('shows before/after states and the parameters sent, never a secret', () => {
    expect(plan.changes[0]!.before).toEqual({ mode: 'disabled' });
    expect(plan.changes[0]!.after).toEqual({ mode: 'primary' });
    expect(plan.changes[2]!.after).toEqual({ mode: 'primary', id: 'west', ttl: 1800 });
    expect(plan.changes[3]!.after).toEqual({ mode: 'secondary', follows: 'east' });
    expect(plan.changes[3]!.writeOnlyFields).toEqual(['token']);
  });

  it('passes primaryClusterAddr, the TTL and the secondary options through', () => {
    const p = planFor(
      { primary: 'east', secondaries: [{ cluster: 'west', primary_api_addr: 'https://east-api:8200', ca_file: '/ca.pem' }], primaryClusterAddr: 'https://lb:8201', secondaryTokenTtl: '10m', ...shares },
      { east: DISABLED, west: DISABLED },
    );
    expect(p.changes.map((c) => c.after)).toEqual([
      { mode: 'primary', primary_cluster_addr: 'https://lb:8201' },
      { mode: 'disabled' },
      { mode: 'primary', id: 'west', ttl: 600 },
      { mode: 'secondary', follows: 'east', primary_api_addr: 'https://east-api:8200', ca_file: '/ca.pem' },
    ]);
    expect(stepOfChange(p.changes[3]!)).toEqual({
      op: 'enable-secondary',
      cluster: 'west',
      primary: 'east',
      options: { primary_api_addr: 'https://east-api:8200', ca_file: '/ca.pem', ca_path: '' },
    });
  });
});

describe('steady state', () => {
  it('plans nothing when every secondary follows the primary', () => {
    const plan = planFor({ primary: 'east', secondaries: ['west', 'south'], ...shares }, steady);
    expect(plan).toEqual({ changes: [], unmanaged: [], notes: [], errors: [] });
  });
});

describe('a new secondary', () => {
  it('joins it without touching the others', () => {
    const plan = planFor(
      { primary: 'east', secondaries: ['west', 'south'], ...shares },
      { east: primaryStatus('C1', ['west'], E), west: secondaryStatus('C1', 'west', E), south: DISABLED },
    );
    expect(addresses(plan)).toEqual([
      'south:sys/replication/dr/secondary/generate-public-key',
      'east:sys/replication/dr/primary/secondary-token/south',
      'south:sys/replication/dr/secondary/enable',
    ]);
  });
});

describe('a removed secondary', () => {
  it('revokes it on the primary, then disables it with a generated token deleted afterwards', () => {
    const plan = planFor({ primary: 'east', secondaries: ['west'], ...shares }, steady);
    expect(addresses(plan)).toEqual([
      'east:sys/replication/dr/primary/revoke-secondary/south',
      'south:sys/replication/dr/secondary/disable',
      'south:sys/replication/dr/secondary/operation-token/delete',
    ]);
    expect(plan.changes.map((c) => c.destructive)).toEqual([false, true, false]);
    expect(plan.changes[1]!.writeOnlyFields).toEqual(['dr_operation_token']);
  });

  it('uses the given token and plans no delete for it (the operator owns it)', () => {
    const plan = planFor({ primary: 'east', secondaries: ['west'], operationTokens: { west: 'w', south: 's' } }, steady);
    expect(addresses(plan)).toEqual(['east:sys/replication/dr/primary/revoke-secondary/south', 'south:sys/replication/dr/secondary/disable']);
    expect(plan.changes[1]!.notes).toContain('uses the DR operation token given for south (operationTokens.south); it is yours and is not deleted');
  });

  it('is refused without a token for the removed cluster', () => {
    const plan = planFor({ primary: 'east', secondaries: ['west'], operationTokens: { west: 'w' } }, steady);
    expect(plan.changes).toEqual([]);
    expect(refusals(plan)).toEqual([
      'DrReplication prod: removing south from set prod (secondary disable) needs the DR operation token of south: add operationTokens.south or keyShares',
    ]);
  });
});

describe('planned failover east → west', () => {
  const plan = planFor({ primary: 'west', secondaries: ['east', 'south'], ...shares }, steady);

  it('demotes, promotes, then re-points every other member; one token delete after each last use', () => {
    expect(refusals(plan)).toEqual([]);
    expect(addresses(plan)).toEqual([
      'east:sys/replication/dr/primary/demote',
      'west:sys/replication/dr/secondary/promote',
      'west:sys/replication/dr/secondary/operation-token/delete',
      'east:sys/replication/dr/secondary/generate-public-key',
      'west:sys/replication/dr/primary/secondary-token/east',
      'east:sys/replication/dr/secondary/update-primary',
      'east:sys/replication/dr/secondary/operation-token/delete',
      'south:sys/replication/dr/secondary/generate-public-key',
      'west:sys/replication/dr/primary/secondary-token/south',
      'south:sys/replication/dr/secondary/update-primary',
      'south:sys/replication/dr/secondary/operation-token/delete',
    ]);
  });

  it('wipes nothing: the old primary rejoins with update-primary', () => {
    expect(plan.changes.some((c) => c.destructive)).toBe(false);
  });

  it('guards the promotion: west a secondary of the set, east demoted, south a secondary', () => {
    const promote = plan.changes[1]!;
    expect(promote.guards.map((g) => [g.address.toString(), g.expect])).toEqual([
      ['west:sys/replication/dr/status', { mode: 'secondary', cluster_id: 'C1' }],
      ['east:sys/replication/dr/status', { mode: 'secondary', cluster_id: 'C1' }],
      ['south:sys/replication/dr/status', { mode: 'secondary', cluster_id: 'C1' }],
    ]);
    // east is demoted by then: west follows no one when it is promoted.
    expect(promote.before).toEqual({ mode: 'secondary', follows: null });
    expect(promote.after).toEqual({ mode: 'primary' });
    expect(promote.notes).toContain('uses a DR operation token generated on west from the key shares; it is deleted right after this step');
  });

  it('does not force the promotion unless asked', () => {
    expect(stepOfChange(plan.changes[1]!)).toMatchObject({ op: 'promote', force: false });
    const forced = planFor({ primary: 'west', secondaries: ['east', 'south'], ...shares }, steady, { force: true });
    expect(forced.changes[1]!.after).toEqual({ mode: 'primary', force: true });
    expect(forced.changes[1]!.notes).toContain('force: the safety checks are skipped; data not yet replicated to it may be lost');
    expect(stepOfChange(forced.changes[1]!)).toMatchObject({ op: 'promote', force: true });
  });

  it('needs the new primary\'s operation token', () => {
    const p = planFor({ primary: 'west', secondaries: ['east', 'south'], operationTokens: { east: 'e', south: 's' } }, steady);
    expect(refusals(p)).toEqual(['DrReplication prod: promoting west needs its DR operation token: add operationTokens.west or keyShares']);
  });
});

describe('failover back west → east', () => {
  it('is the mirror image', () => {
    const afterFailover = {
      west: primaryStatus('C1', ['east', 'south'], W),
      east: secondaryStatus('C1', 'east', W),
      south: secondaryStatus('C1', 'south', W),
    };
    const plan = planFor({ primary: 'east', secondaries: ['west', 'south'], operationTokens: { east: 'e', west: 'w', south: 's' } }, afterFailover);
    expect(addresses(plan)).toEqual([
      'west:sys/replication/dr/primary/demote',
      'east:sys/replication/dr/secondary/promote',
      'west:sys/replication/dr/secondary/generate-public-key',
      'east:sys/replication/dr/primary/secondary-token/west',
      'west:sys/replication/dr/secondary/update-primary',
      'south:sys/replication/dr/secondary/generate-public-key',
      'east:sys/replication/dr/primary/secondary-token/south',
      'south:sys/replication/dr/secondary/update-primary',
    ]);
  });
});

describe('unplanned failover (the primary is unreachable)', () => {
  const outage = { east: DOWN, west: secondaryStatus('C1', 'west', E), south: secondaryStatus('C1', 'south', E) };

  it('is refused without --allow-unreachable-primary, saying why', () => {
    const plan = planFor({ primary: 'west', secondaries: ['east', 'south'], ...shares }, outage);
    expect(plan.changes).toEqual([]);
    expect(refusals(plan)).toHaveLength(1);
    expect(refusals(plan)[0]).toContain('no DR primary is reachable and east is unreachable and may still be DR primary');
    expect(refusals(plan)[0]).toContain('--allow-unreachable-primary');
  });

  it('with the flag: promotes west, re-points south, skips east, and says east must be demoted when back', () => {
    const plan = planFor({ primary: 'west', secondaries: ['east', 'south'], ...shares }, outage, { allowUnreachablePrimary: true });
    expect(refusals(plan)).toEqual([]);
    expect(addresses(plan)).toEqual([
      'west:sys/replication/dr/secondary/promote',
      'west:sys/replication/dr/secondary/operation-token/delete',
      'south:sys/replication/dr/secondary/generate-public-key',
      'west:sys/replication/dr/primary/secondary-token/south',
      'south:sys/replication/dr/secondary/update-primary',
      'south:sys/replication/dr/secondary/operation-token/delete',
    ]);
    // The promotion re-checks that east is still unreachable (a returning primary aborts it).
    expect(plan.changes[0]!.guards.find((g) => g.address.cluster === 'east')!.expect).toEqual({ reachable: false });
    expect(plan.notes.map((n) => n.message).join('\n')).toContain('It must be demoted when it returns');
    expect(plan.changes[0]!.notes.join('\n')).toContain('must be demoted when it returns');
  });

  it('when the old primary returns (two primaries): demoting it is the only step', () => {
    const back = { east: primaryStatus('C1', ['west', 'south'], E), west: primaryStatus('C1', ['south'], W), south: secondaryStatus('C1', 'south', W) };
    const plan = planFor({ primary: 'west', secondaries: ['east', 'south'], ...shares }, back);
    expect(refusals(plan)).toEqual([]);
    expect(addresses(plan)).toEqual(['east:sys/replication/dr/primary/demote']);
    expect(plan.notes.map((n) => n.message).join('\n')).toContain('This plan only demotes east');
    // The next plan (east demoted) reconnects it without a wipe.
    const next = planFor({ primary: 'west', secondaries: ['east', 'south'], ...shares }, { ...back, east: secondaryStatus('C1', '', '') });
    expect(addresses(next)).toEqual([
      'east:sys/replication/dr/secondary/generate-public-key',
      'west:sys/replication/dr/primary/secondary-token/east',
      'east:sys/replication/dr/secondary/update-primary',
      'east:sys/replication/dr/secondary/operation-token/delete',
    ]);
  });

  it('with two primaries and neither desired: refused', () => {
    const plan = planFor(
      { primary: 'south', secondaries: ['east', 'west'], ...shares },
      { east: primaryStatus('C1', [], E), west: primaryStatus('C1', [], W), south: secondaryStatus('C1', 'south', W) },
    );
    expect(refusals(plan)[0]).toContain('east and west are all DR primaries and none is the desired primary south');
  });

  it('a planned failover while another member is unreachable also needs the flag', () => {
    const plan = planFor({ primary: 'west', secondaries: ['east', 'south'], ...shares }, { ...steady, south: DOWN });
    expect(refusals(plan)[0]).toContain('even with east demoted, south is unreachable and may still be DR primary');
  });
});

describe('refusals that protect data', () => {
  it('a DR-disabled desired primary while another cluster is primary', () => {
    const plan = planFor({ primary: 'south', secondaries: ['east'], ...shares }, { east: primaryStatus('C1', [], E), south: DISABLED });
    expect(refusals(plan)[0]).toContain('south is DR-disabled while east is the DR primary');
  });

  it('a DR-disabled desired primary while members hold replicated data', () => {
    const plan = planFor({ primary: 'south', secondaries: ['west'], ...shares }, { west: secondaryStatus('C1', 'west', E), south: DISABLED });
    expect(refusals(plan)[0]).toContain('west is a DR secondary holding replicated data');
  });

  it('a primary no DrReplication document names blocks making another primary', () => {
    const plan = planFor({ primary: 'west', ...shares }, { west: DISABLED, east: primaryStatus('C9', [], E) });
    expect(refusals(plan)[0]).toContain('east is a DR primary that no DrReplication document names');
  });

  it('every refusal is named after the set and plans nothing', () => {
    const plan = planFor({ primary: 'south', secondaries: ['east'], ...shares }, { east: primaryStatus('C1', [], E), south: DISABLED });
    expect(plan.changes).toEqual([]);
    expect(refusals(plan).every((e) => e.startsWith('DrReplication prod: '))).toBe(true);
  });
});

describe('a secondary of another replication set', () => {
  it('is disabled (its token), then enabled (wipe)', () => {
    const plan = planFor(
      { primary: 'east', secondaries: ['west'], ...shares },
      { east: primaryStatus('C1', [], E), west: secondaryStatus('C7', 'west', 'https://elsewhere:8201') },
    );
    expect(addresses(plan)).toEqual([
      'west:sys/replication/dr/secondary/disable',
      'west:sys/replication/dr/secondary/operation-token/delete',
      'west:sys/replication/dr/secondary/generate-public-key',
      'east:sys/replication/dr/primary/secondary-token/west',
      'west:sys/replication/dr/secondary/enable',
    ]);
    expect(plan.changes.filter((c) => c.destructive).length).toBe(2);
  });

  it('a stale registration is revoked before a new token is issued', () => {
    const plan = planFor({ primary: 'east', secondaries: ['west'], ...shares }, { east: primaryStatus('C1', ['west'], E), west: DISABLED });
    expect(addresses(plan)[0]).toBe('east:sys/replication/dr/primary/revoke-secondary/west');
  });
});

describe('unreachable clusters', () => {
  it('a down secondary is refused (never "no changes"): a drift check must not pass it', () => {
    const live = { east: primaryStatus('C1', ['west'], E), west: secondaryStatus('C1', 'west', E), south: DOWN, north: DOWN };
    const plan = planFor({ primary: 'east', secondaries: ['west', 'south', 'north'], ...shares }, live);
    expect(plan.changes).toEqual([]);
    expect(refusals(plan)).toEqual([
      'DrReplication prod: south and north are unreachable: lockstep cannot confirm they follow east. ' +
        'If they are down, plan with --allow-unreachable-primary to acknowledge the outage; DR steps for them then wait for a plan that can see them',
    ]);
  });

  it('a down secondary acknowledged with the flag is skipped with a note', () => {
    const plan = planFor(
      { primary: 'east', secondaries: ['west', 'south'], ...shares },
      { east: primaryStatus('C1', ['west'], E), west: secondaryStatus('C1', 'west', E), south: DOWN },
      { allowUnreachablePrimary: true },
    );
    expect(plan.changes).toEqual([]);
    expect(refusals(plan)).toEqual([]);
    expect(plan.notes.map((n) => [n.address?.toString(), n.message])).toEqual([
      ['south:sys/replication/dr/status', 'DrReplication prod: south is unreachable (acknowledged with --allow-unreachable-primary): its DR steps wait for a plan that can see it'],
    ]);
  });

  it('a down desired primary is refused (never "no changes"), pointing at a failover', () => {
    const plan = planFor({ primary: 'east', secondaries: ['west'], ...shares }, { east: DOWN, west: secondaryStatus('C1', 'west', E) });
    expect(plan.changes).toEqual([]);
    expect(refusals(plan)[0]).toContain('east, the desired DR primary, is unreachable');
    expect(refusals(plan)[0]).toContain('--allow-unreachable-primary');
  });

  it('bootstrap with a down cluster needs the flag', () => {
    const plan = planFor({ primary: 'east', secondaries: ['west'], ...shares }, { east: DISABLED, west: DOWN });
    expect(refusals(plan)[0]).toContain('east cannot be enabled as DR primary while west is unreachable');
    const allowed = planFor({ primary: 'east', secondaries: ['west'], ...shares }, { east: DISABLED, west: DOWN }, { allowUnreachablePrimary: true });
    expect(addresses(allowed)).toEqual(['east:sys/replication/dr/primary/enable']);
  });
});

describe('purity', () => {
  it('the same input gives the same plan and inputs are not mutated', () => {
    const statuses = structuredClone(steady);
    const a = planFor({ primary: 'west', secondaries: ['east', 'south'], ...shares }, statuses);
    const b = planFor({ primary: 'west', secondaries: ['east', 'south'], ...shares }, statuses);
    expect(JSON.stringify(a)).toBe(JSON.stringify(b));
    expect(statuses).toEqual(steady);
  });
});

describe('the step catalogue', () => {
  it('every planned change names its step: parsing it back gives a step at the same address', () => {
    const plans = [
      planFor({ primary: 'east', secondaries: ['west', 'south'], ...shares }, { east: DISABLED, west: DISABLED, south: DISABLED }),
      planFor({ primary: 'west', secondaries: ['east', 'south'], ...shares }, steady),
      planFor({ primary: 'east', secondaries: ['west'], ...shares }, steady),
      planFor({ primary: 'east', secondaries: ['west'], ...shares }, { east: primaryStatus('C1', ['west'], E), west: secondaryStatus('C7', 'west', W) }),
      planFor({ primary: 'west', secondaries: ['east'], ...shares }, { west: primaryStatus('C1', [], W), east: primaryStatus('C9', [], E) }),
    ];
    const ops = new Set<string>();
    for (const plan of plans) {
      for (const change of plan.changes) {
        const step = stepOfChange(change);
        ops.add(step.op);
        expect(stepAddress(step).toString()).toBe(change.address.toString());
      }
    }
    expect([...ops].sort()).toEqual([
      'delete-operation-token',
      'demote',
      'disable-primary',
      'disable-secondary',
      'enable-primary',
      'enable-secondary',
      'generate-public-key',
      'promote',
      'revoke-secondary',
      'secondary-token',
      'update-primary',
    ]);
  });
});
