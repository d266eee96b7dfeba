import { describe, expect, it } from 'vitest';
import type { ObservedCluster } from '../../../src/kinds/dr-replication/observed.js';
import { applyStep, initialState, simulate } from '../../../src/kinds/dr-replication/simulator.js';
import type { Step } from '../../../src/kinds/dr-replication/steps.js';

const primary = (id: string, known: string[] = []): ObservedCluster => ({ state: 'primary', clusterId: id, knownSecondaries: known, primaryClusterAddr: 'E' });
const secondary = (id: string, sid: string, addr = 'E'): ObservedCluster => ({ state: 'secondary', clusterId: id, secondaryId: sid, primaryClusterAddr: addr });
const world = (entries: Record<string, ObservedCluster>): Map<string, ObservedCluster> => new Map(Object.entries(entries));
const promote = (cluster: string): Step => ({ op: 'promote', cluster, primaryClusterAddr: '', force: false, unreachable: [] });
const demote = (cluster: string): Step => ({ op: 'demote', cluster, newPrimary: '' });
const NONE = { primaryClusterAddr: '', ca_file: '', ca_path: '' } as never;

describe('the DR simulator', () => {
  it('refuses a promotion while another cluster is primary', () => {
    const r = simulate(initialState(world({ east: primary('C'), west: secondary('C', 'west') })), [promote('west')]);
    expect(r).toEqual({ ok: false, index: 0, reason: 'west:sys/replication/dr/secondary/promote would make a second DR primary: east is primary or unreachable (may be primary)' });
  });

  it('accepts demote then promote (never two primaries)', () => {
    const r = simulate(initialState(world({ east: primary('C'), west: secondary('C', 'west') })), [demote('east'), promote('west')]);
    expect(r.ok).toBe(true);
  });

  it('counts unseen clusters as possible primaries for steps that make one', () => {
    const state = initialState(world({ east: { state: 'unreachable' }, west: secondary('C', 'west') }), new Set(['east']));
    expect(simulate(state, [promote('west')]).ok).toBe(false);
    // --allow-unreachable-primary: the planner passes no unseen primaries.
    expect(simulate(initialState(state.clusters), [promote('west')]).ok).toBe(true);
  });

  it('from two primaries, a demotion (fewer primaries) is allowed, anything else is not', () => {
    const split = initialState(world({ east: primary('C'), west: primary('C'), south: { state: 'disabled' } }));
    expect(simulate(split, [demote('east')]).ok).toBe(true);
    expect(simulate(split, [{ op: 'generate-public-key', cluster: 'south' }]).ok).toBe(false);
  });

  it('follows the spec state table', () => {
    const s = initialState(world({ east: { state: 'disabled' }, west: { state: 'disabled' } }));
    expect(applyStep(s, demote('east'))).toEqual({ ok: false, reason: 'east is DR-disabled, not DR primary' });
    expect(applyStep(s, { op: 'update-primary', cluster: 'west', primary: 'east', options: NONE })).toEqual({ ok: false, reason: 'east is DR-disabled, not DR primary' });
    const enabled = applyStep(s, { op: 'enable-primary', cluster: 'east', primaryClusterAddr: '' });
    if (!enabled.ok) throw new Error(enabled.reason);
    // An activation token needs the secondary's public key first, and is single use.
    expect(applyStep(enabled.state, { op: 'secondary-token', cluster: 'east', secondary: 'west', ttlSeconds: 60 })).toEqual({ ok: false, reason: 'west has made no key pair for its activation token' });
    const r = simulate(enabled.state, [
      { op: 'generate-public-key', cluster: 'west' },
      { op: 'secondary-token', cluster: 'east', secondary: 'west', ttlSeconds: 60 },
      { op: 'enable-secondary', cluster: 'west', primary: 'east', options: NONE },
    ]);
    if (!r.ok) throw new Error(r.reason);
    expect(r.final.clusters.get('west')).toMatchObject({ state: 'secondary', secondaryId: 'west' });
    expect(r.final.clusters.get('east')).toMatchObject({ state: 'primary', knownSecondaries: ['west'] });
    expect(r.final.activation.size).toBe(0);
  });

  it('update-primary keeps the set: a secondary of another set cannot be re-pointed', () => {
    const s = initialState(world({ east: primary('C'), west: secondary('OTHER', 'west') }));
    const r = simulate(s, [
      { op: 'generate-public-key', cluster: 'west' },
      { op: 'secondary-token', cluster: 'east', secondary: 'west', ttlSeconds: 60 },
      { op: 'update-primary', cluster: 'west', primary: 'east', options: NONE },
    ]);
    expect(r).toMatchObject({ ok: false, index: 2 });
  });

  it('never mutates its input', () => {
    const clusters = world({ east: primary('C', ['west']), west: secondary('C', 'west') });
    const s = initialState(clusters);
    simulate(s, [demote('east'), promote('west')]);
    expect(clusters.get('east')).toEqual(primary('C', ['west']));
    expect(s.clusters).toBe(clusters);
  });
});
