/**
 * What the planner and the simulator know about one cluster of a replication set: its DR mode
 * and the few stable facts that say which set it belongs to and whom it follows. Pure data.
 */
export type ObservedCluster =
  | { state: 'unreachable' }
  | { state: 'disabled' }
  | {
      state: 'primary';
      /** The replication set's id: shared by the primary and its secondaries. */
      clusterId: string;
      /** Ids of the secondaries activated with this primary's tokens (sorted). */
      knownSecondaries: readonly string[];
      /** The cluster address this primary gives its secondaries. */
      primaryClusterAddr: string;
    }
  | {
      state: 'secondary';
      clusterId: string;
      /** The activation id it joined with ('' when unknown). */
      secondaryId: string;
      /** The address of the primary it follows; '' after a demotion (it follows none). */
      primaryClusterAddr: string;
    };

/**
 * Values the simulator invents for what a step will create (a fresh primary's cluster id, its
 * default cluster address). They equal only themselves and are never put in guards.
 */
export function plannedValue(what: string, cluster: string): string {
  return `(${what} of ${cluster} after this plan)`;
}

export function isPlannedValue(v: string): boolean {
  return v.startsWith('(') && v.endsWith(' after this plan)');
}

/** Does secondary `s` (named `name`) follow primary `p`? Registered, same set, pointed at it. */
export function follows(name: string, s: ObservedCluster, p: ObservedCluster): boolean {
  if (s.state !== 'secondary' || p.state !== 'primary') return false;
  if (s.clusterId !== p.clusterId) return false;
  if (s.primaryClusterAddr === '') return false;
  const id = s.secondaryId || name;
  if (!p.knownSecondaries.includes(id)) return false;
  return p.primaryClusterAddr === '' || s.primaryClusterAddr === p.primaryClusterAddr;
}

/** The cluster id of a primary or secondary; undefined otherwise. */
export function clusterIdOf(c: ObservedCluster | undefined): string | undefined {
  if (!c) return undefined;
  switch (c.state) {
    case 'primary':
    case 'secondary':
      return c.clusterId;
    case 'disabled':
    case 'unreachable':
      return undefined;
  }
}

/** `primary`, `secondary`, `disabled`, or `unreachable`, as sentences use it. */
export function describeState(c: ObservedCluster | undefined): string {
  if (!c) return 'unknown';
  switch (c.state) {
    case 'unreachable':
      return 'unreachable';
    case 'disabled':
      return 'DR-disabled';
    case 'primary':
      return 'DR primary';
    case 'secondary':
      return 'DR secondary';
  }
}
