/**
 * The spec's versioning rule 4 as a plan-time guard: "replicating from a newer service version to
 * an older one is unsafe; when upgrading replicated clusters, an upstream cluster must never run
 * a newer version than its downstream cluster" (also the warning of
 * website/content/api-docs/system/replication/replication-dr.mdx, "Promote DR secondary").
 * Releases are those sys/health reports (http/sys_health.go `version`).
 */
import { describe, expect, it } from 'vitest';
import type { JsonObject } from '../../../src/core/json.js';
import { guardMismatch } from '../../../src/kinds/dr-replication/guards.js';
import { addresses, DISABLED, DOWN, planFor, primaryStatus, refusals, secondaryStatus, SHARE_TEXTS } from './fixtures.js';

const E = 'https://east:8201';
const W = 'https://west:8201';
const OLD = '1.21.0+ent';
const NEW = '1.21.1+ent';
const shares = { keyShares: SHARE_TEXTS };
const ACK = { acknowledge: ['primary-newer-than-secondary'] };
const on = (status: JsonObject, release: string): JsonObject => ({ ...status, release });
const warnings = (plan: ReturnType<typeof planFor>) => plan.changes.map((c) => [c.address.toString(), c.notes.filter((n) => n.startsWith('warning:'))] as const).filter(([, w]) => w.length > 0);

describe('#26: no plan leaves a DR primary on a newer release than a secondary following it', () => {
  it('bootstrap: refused when the primary-to-be is newer, naming the step, both releases and the safe order', () => {
    const plan = planFor({ primary: 'east', secondaries: ['west', 'south'], ...shares }, { east: on(DISABLED, NEW), west: on(DISABLED, OLD), south: on(DISABLED, NEW) });
    expect(addresses(plan)).toEqual([]);
    expect(refusals(plan)).toEqual([
      'DrReplication prod: refusing a plan that leaves a DR primary on a newer release than a secondary following it: ' +
        'after west:sys/replication/dr/secondary/enable, east (1.21.1+ent) over west (1.21.0+ent). ' +
        'Replicating from a newer release to an older one is unsafe: secondaries are upgraded first: bring west to 1.21.1+ent or later before it follows a primary on that release. ' +
        "To go ahead anyway, add primary-newer-than-secondary to the document's acknowledge list",
    ]);
  });

  it('acknowledged: planned, the skew a warning on every step after which it stands', () => {
    const plan = planFor({ primary: 'east', secondaries: ['west', 'south'], ...shares, ...ACK }, { east: on(DISABLED, NEW), west: on(DISABLED, OLD), south: on(DISABLED, NEW) });
    expect(refusals(plan)).toEqual([]);
    const warning = 'warning: after this step east (1.21.1+ent) over west (1.21.0+ent): a DR primary replicates to an older release (acknowledged as primary-newer-than-secondary)';
    expect(warnings(plan)).toEqual([
      ['west:sys/replication/dr/secondary/enable', [warning]],
      ['south:sys/replication/dr/secondary/generate-public-key', [warning]],
      ['east:sys/replication/dr/primary/secondary-token/south', [warning]],
      ['south:sys/replication/dr/secondary/enable', [warning]],
    ]);
  });

  it('adding a secondary on an older release than the primary: refused; on a newer one: planned', () => {
    const live = { east: on(primaryStatus('C1', ['west'], E), OLD), west: on(secondaryStatus('C1', 'west', E), OLD) };
    const older = planFor({ primary: 'east', secondaries: ['west', 'south'], ...shares }, { ...live, south: on(DISABLED, '1.20.9+ent') });
    expect(refusals(older)[0]).toContain('after south:sys/replication/dr/secondary/enable, east (1.21.0+ent) over south (1.20.9+ent)');
    const newer = planFor({ primary: 'east', secondaries: ['west', 'south'], ...shares }, { ...live, south: on(DISABLED, NEW) });
    expect(refusals(newer)).toEqual([]);
    expect(warnings(newer)).toEqual([]);
  });

  describe('upgrading: secondaries first', () => {
    // west and south were upgraded; east, the primary, was not.
    const upgraded = {
      east: on(primaryStatus('C1', ['west', 'south'], E), OLD),
      west: on(secondaryStatus('C1', 'west', E), NEW),
      south: on(secondaryStatus('C1', 'south', E), NEW),
    };

    it('leaves the set as it is: no changes, no warning, and the releases shown beside the members', () => {
      const plan = planFor({ primary: 'east', secondaries: ['west', 'south'], ...shares }, upgraded);
      expect(addresses(plan)).toEqual([]);
      expect(plan.notes.map((n) => [n.severity, n.address?.toString(), n.message])).toEqual([
        ['info', 'east:sys/replication/dr', 'DrReplication prod: releases: east 1.21.0+ent (DR primary), west 1.21.1+ent (DR secondary), south 1.21.1+ent (DR secondary)'],
      ]);
    });

    it('a planned failover to an upgraded secondary would make east, still old, follow it: refused, saying how to fail over safely', () => {
      const plan = planFor({ primary: 'west', secondaries: ['east', 'south'], ...shares }, upgraded);
      expect(addresses(plan)).toEqual([]);
      const [refusal] = refusals(plan);
      expect(refusal).toContain('after east:sys/replication/dr/secondary/update-primary, west (1.21.1+ent) over east (1.21.0+ent)');
      expect(refusal).toContain('bring east to 1.21.1+ent or later');
      expect(refusal).toContain('To fail over while east is upgraded, stop it and plan with --allow-unreachable-primary');
    });

    it('the failover while east is down for its upgrade: planned (east waits), and east re-attached once it returns upgraded; not before', () => {
      const down = { ...upgraded, east: DOWN };
      const failover = planFor({ primary: 'west', secondaries: ['east', 'south'], ...shares }, down, { allowUnreachablePrimary: true });
      expect(refusals(failover)).toEqual([]);
      expect(addresses(failover)).toContain('south:sys/replication/dr/secondary/update-primary');
      expect(warnings(failover)).toEqual([]);

      const after = { west: on(primaryStatus('C1', ['south'], W), NEW), south: on(secondaryStatus('C1', 'south', W), NEW) };
      // east returns still DR primary (split brain): its demotion only; no release judged yet (it follows no one after it).
      expect(addresses(planFor({ primary: 'west', secondaries: ['east', 'south'], ...shares }, { ...after, east: on(primaryStatus('C1', ['west', 'south'], E), OLD) }))).toEqual([
        'east:sys/replication/dr/primary/demote',
      ]);
      const demoted = (release: string) => ({ ...after, east: on(secondaryStatus('C1', '', ''), release) });
      const notUpgraded = planFor({ primary: 'west', secondaries: ['east', 'south'], ...shares }, demoted(OLD));
      expect(refusals(notUpgraded)[0]).toContain('after east:sys/replication/dr/secondary/update-primary, west (1.21.1+ent) over east (1.21.0+ent)');
      const reattach = planFor({ primary: 'west', secondaries: ['east', 'south'], ...shares }, demoted('1.21.1+ent.hsm'));
      expect(refusals(reattach)).toEqual([]);
      expect(addresses(reattach)).toContain('east:sys/replication/dr/secondary/update-primary');
    });

    it('an unplanned failover to an upgraded secondary while another is still old: refused', () => {
      const plan = planFor(
        { primary: 'west', secondaries: ['east', 'south'], ...shares },
        { ...upgraded, east: DOWN, south: on(secondaryStatus('C1', 'south', E), OLD) },
        { allowUnreachablePrimary: true },
      );
      expect(refusals(plan)[0]).toContain('after south:sys/replication/dr/secondary/update-primary, west (1.21.1+ent) over south (1.21.0+ent)');
    });

    it('failing back to the last cluster upgraded: refused while the others are older', () => {
      const live = {
        west: on(primaryStatus('C1', ['east', 'south'], W), OLD),
        east: on(secondaryStatus('C1', 'east', W), NEW),
        south: on(secondaryStatus('C1', 'south', W), OLD),
      };
      const [refusal] = refusals(planFor({ primary: 'east', secondaries: ['west', 'south'], ...shares }, live));
      expect(refusal).toContain('east (1.21.1+ent) over west (1.21.0+ent)');
      expect(refusal).toContain('bring west to 1.21.1+ent or later and south to 1.21.1+ent or later before they follow');
    });
  });

  it('a primary already newer than a secondary (upgraded first): every plan warns, none is refused for it when it plans nothing', () => {
    const live = { east: on(primaryStatus('C1', ['west'], E), NEW), west: on(secondaryStatus('C1', 'west', E), OLD) };
    const plan = planFor({ primary: 'east', secondaries: ['west'], ...shares }, live);
    expect(refusals(plan)).toEqual([]);
    expect(plan.notes.filter((n) => n.severity === 'warning').map((n) => n.message)).toEqual([
      'DrReplication prod: east (1.21.1+ent) over west (1.21.0+ent): a DR primary replicates to an older release, which is unsafe; secondaries are upgraded first: bring west to 1.21.1+ent or later before it follows a primary on that release',
    ]);
  });

  it('guards carry each involved cluster\'s release: an upgrade between plan and apply stops the step, naming it', () => {
    const plan = planFor({ primary: 'east', secondaries: ['west', 'south'], ...shares }, { east: on(DISABLED, OLD), west: on(DISABLED, OLD), south: on(DISABLED, OLD) });
    const enable = plan.changes.find((c) => c.address.toString() === 'west:sys/replication/dr/secondary/enable')!;
    expect(enable.guards.map((g) => [g.address.cluster, g.expect['release']])).toEqual([
      ['west', OLD],
      ['east', OLD],
    ]);
    const eastGuard = enable.guards.find((g) => g.address.cluster === 'east')!;
    expect(guardMismatch('east', eastGuard.expect, { reachable: true, mode: 'primary', cluster_id: 'x', release: NEW })).toBe(
      'east now reports release 1.21.1+ent, expected 1.21.0+ent (upgraded since the plan?)',
    );
    expect(guardMismatch('east', eastGuard.expect, { reachable: true, mode: 'primary', release: OLD })).toBeUndefined();
  });
});
