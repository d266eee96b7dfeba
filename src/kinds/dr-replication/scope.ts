import { clusterIdOf, type ObservedCluster } from './observed.js';
import type { DrSetAttrs } from './types.js';

/**
 * Which observed clusters a replication set's plan considers: its members (reachable or not),
 * plus unassigned clusters that belong to the set's data (same cluster id: a former member, an
 * old primary dropped from the manifest), plus unassigned clusters that cannot be seen (one of
 * them may be an old primary). Reachable primaries
 * outside the set are listed apart: they block making a primary. Pure.
 */
export interface SetScope {
  primary: string;
  members: string[];
  /** Every cluster the plan reasons about, members first. */
  clusters: Map<string, ObservedCluster>;
  /** The replication set's cluster id, when one can be told. */
  clusterId: string | undefined;
  /** Reachable DR primaries in scope (sorted). */
  reachablePrimaries: string[];
  /** Unreachable clusters in scope (sorted). */
  unreachable: string[];
  /**
   * Reachable DR primaries outside the set that no DrReplication document names (sorted):
   * lockstep makes no primary while one is visible (it cannot tell whose data it holds).
   */
  undeclaredPrimaries: string[];
}

export function setScope(set: DrSetAttrs, observed: ReadonlyMap<string, ObservedCluster>): SetScope {
  const members = [set.primary, ...set.secondaries.map((s) => s.cluster)];
  const memberNames = new Set(members);
  const stateOf = (name: string): ObservedCluster => observed.get(name) ?? { state: 'unreachable' };
  const clusterId = setClusterId(set.primary, members, stateOf);
  const desiredPrimary = stateOf(set.primary);
  const known = desiredPrimary.state === 'primary' ? desiredPrimary.knownSecondaries : [];
  const clusters = new Map<string, ObservedCluster>(members.map((m) => [m, stateOf(m)]));
  const others = [...set.unassignedClusters].filter((o) => !memberNames.has(o) && observed.has(o)).sort();
  for (const other of others) {
    const state = stateOf(other);
    const sameSet = clusterId !== undefined && clusterIdOf(state) === clusterId;
    if (sameSet || known.includes(other)) clusters.set(other, state);
  }
  // An unseen cluster may be an old primary (of this set or dropped from it): it counts
  // whenever a primary is made.
  for (const other of others) if (stateOf(other).state === 'unreachable') clusters.set(other, stateOf(other));
  const names = [...clusters.keys()];
  return {
    primary: set.primary,
    members,
    clusters,
    clusterId,
    reachablePrimaries: names.filter((n) => clusters.get(n)!.state === 'primary').sort(),
    unreachable: names.filter((n) => clusters.get(n)!.state === 'unreachable').sort(),
    undeclaredPrimaries: others.filter((o) => !clusters.has(o) && stateOf(o).state === 'primary'),
  };
}

/** The desired primary's cluster id if it has one, else the one reachable member primary's. */
function setClusterId(primary: string, members: string[], stateOf: (n: string) => ObservedCluster): string | undefined {
  const own = clusterIdOf(stateOf(primary));
  if (own !== undefined) return own;
  const primaries = members.filter((m) => stateOf(m).state === 'primary');
  return primaries.length === 1 ? clusterIdOf(stateOf(primaries[0]!)) : undefined;
}
