import type { PlanNote } from '../../core/plan.js';
import type { DesiredState, LiveState } from '../../core/resource.js';
import type { KindPlan, PlanFlags } from '../kind.js';
import { statusAddress } from './addresses.js';
import { changesOf } from './changes.js';
import { setAttrsOf } from './desired.js';
import type { ObservedCluster } from './observed.js';
import { planSequence } from './planner.js';
import { tokenAvailability } from './secrets.js';
import { observedFromAttrs, releaseOfAttrs } from './status.js';
import type { Release } from '../../values/index.js';
import { describeState } from './observed.js';
import { DR_SET, DR_STATUS, type DrSetAttrs } from './types.js';

/** The kind's plan hook: each set planned on its own (a cluster belongs to one set). Pure. */
export function planDrReplication(desired: DesiredState, live: LiveState, flags: PlanFlags): KindPlan {
  const statuses = new Map(live.resources.filter((r) => r.resourceType === DR_STATUS).map((r) => [r.address.toString(), r.attrs]));
  const plan: KindPlan = { changes: [], unmanaged: [], notes: [], errors: [] };
  for (const resource of desired.resources.filter((r) => r.resourceType === DR_SET)) {
    const set = setAttrsOf(resource.attrs);
    const names = [set.primary, ...set.secondaries.map((s) => s.cluster), ...set.unassignedClusters];
    const observed = new Map<string, ObservedCluster>(names.map((n) => [n, observedFromAttrs(statuses.get(statusAddress(n).toString()))]));
    const releases = new Map(names.flatMap((n) => {
      const release = releaseOfAttrs(statuses.get(statusAddress(n).toString()));
      return release ? [[n, release] as const] : [];
    }));
    const tokens = tokenAvailability(Object.keys(resource.writeOnly));
    const sequence = planSequence({ set, observed, releases, tokens, flags });
    const shown = releasesNote(set, observed, releases);
    if (shown) plan.notes.push({ severity: 'info', message: `DrReplication ${set.name}: ${shown}`, address: resource.address });
    plan.changes.push(...changesOf(sequence, tokens, releases).map((c) => ({ ...c, owner: resource.address })));
    plan.notes.push(
      ...sequence.notes.map(
        (n): PlanNote => ({ severity: n.severity, message: `DrReplication ${set.name}: ${n.message}`, address: n.cluster ? statusAddress(n.cluster) : resource.address }),
      ),
    );
    plan.errors.push(...sequence.errors.map((e) => ({ address: resource.address, message: `DrReplication ${set.name}: ${e}` })));
  }
  return plan;
}

/**
 * Each member beside its release and DR role, e.g. `releases: east 1.21.0+ent (DR primary), ...`;
 * none when no member reports a release (a server that reports none has nothing to show).
 */
function releasesNote(set: DrSetAttrs, observed: ReadonlyMap<string, ObservedCluster>, releases: ReadonlyMap<string, Release>): string | undefined {
  const members = [set.primary, ...set.secondaries.map((s) => s.cluster)];
  if (!members.some((m) => releases.has(m))) return undefined;
  const member = (name: string): string => {
    const state = observed.get(name);
    if (state?.state === 'unreachable') return `${name} unreachable`;
    return `${name} ${releases.get(name)?.reported ?? '(no release reported)'} (${describeState(state)})`;
  };
  return `releases: ${members.map(member).join(', ')}`;
}
