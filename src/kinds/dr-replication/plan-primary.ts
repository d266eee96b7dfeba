import type { PlanFlags } from '../kind.js';
import type { ObservedCluster } from './observed.js';
import type { SetScope } from './scope.js';
import { tokenSourceFor, type TokenAvailability } from './secrets.js';
import { isAre, listNames, type SequenceBuilder } from './sequence-builder.js';
import type { DrSetAttrs } from './types.js';

export type PrimaryFlags = Pick<PlanFlags, 'allowUnreachablePrimary' | 'force'>;

/**
 * Several reachable primaries (an old primary came back after an unplanned failover): the plan
 * is only their demotion, first and alone. Returns true when it planned that (stop there).
 */
export function planSplitBrain(b: SequenceBuilder, scope: SetScope): boolean {
  const primaries = scope.reachablePrimaries;
  if (primaries.length < 2) return false;
  const desired = scope.primary;
  if (!primaries.includes(desired)) {
    b.refuse(
      `${listNames(primaries)} are all DR primaries and none is the desired primary ${desired}: decide by hand which one keeps its data, demote the others, then plan again`,
    );
    return true;
  }
  const keep = scope.clusters.get(desired) as Extract<ObservedCluster, { state: 'primary' }>;
  const extra = primaries.filter((p) => p !== desired);
  for (const name of extra) {
    const other = scope.clusters.get(name) as Extract<ObservedCluster, { state: 'primary' }>;
    if (other.clusterId === keep.clusterId) {
      b.emit({ op: 'demote', cluster: name, newPrimary: desired });
    } else {
      b.emit({ op: 'disable-primary', cluster: name });
    }
  }
  b.note(
    'warning',
    `${listNames([...extra, desired])} are ${primaries.length === 2 ? 'both' : 'all'} DR primaries (an old primary back after an unplanned failover?). ` +
      `This plan only demotes ${listNames(extra)} so that ${desired} stays the one primary; ` +
      'writes made on a demoted primary since the failover are not kept. Plan again afterwards to reconnect it.',
  );
  return true;
}

/**
 * Makes the desired primary the set's one primary: nothing, a failover (demote the old
 * primary, promote), or enabling it. Returns false when nothing more can be planned.
 */
export function planPrimary(b: SequenceBuilder, scope: SetScope, set: DrSetAttrs, tokens: TokenAvailability, flags: PrimaryFlags): boolean {
  const desired = b.cluster(set.primary);
  switch (desired.state) {
    case 'unreachable':
      // Refused, not an empty plan: "no changes" would claim a set lockstep cannot see is fine.
      b.refuse(
        `${set.primary}, the desired DR primary, is unreachable: nothing of set ${set.name} can be planned or checked until it is back. ` +
          `If it is lost, fail over: make a reachable secondary the primary in the manifest and plan with --allow-unreachable-primary`,
      );
      return false;
    case 'primary':
      return true;
    case 'secondary':
      return planFailover(b, scope, set, desired, tokens, flags);
    case 'disabled':
      return planEnablePrimary(b, scope, set, flags);
  }
}

/** No primary is made while an undeclared one is visible (two primaries, whoever's they are). */
function refuseUndeclaredPrimaries(b: SequenceBuilder, scope: SetScope, target: string): boolean {
  const undeclared = scope.undeclaredPrimaries;
  if (undeclared.length === 0) return false;
  b.refuse(
    `${listNames(undeclared)} ${isAre(undeclared)} ${undeclared.length === 1 ? 'a DR primary' : 'DR primaries'} that no DrReplication document names: ` +
      `making ${target} primary would make two primaries. List ${undeclared.length === 1 ? 'it' : 'them'} in a DrReplication document ` +
      `(this set's, if ${undeclared.length === 1 ? 'it holds' : 'one holds'} its data) or disable DR replication on ${undeclared.length === 1 ? 'it' : 'them'}`,
  );
  return true;
}

function planFailover(
  b: SequenceBuilder,
  scope: SetScope,
  set: DrSetAttrs,
  desired: Extract<ObservedCluster, { state: 'secondary' }>,
  tokens: TokenAvailability,
  flags: PrimaryFlags,
): boolean {
  const target = set.primary;
  if (refuseUndeclaredPrimaries(b, scope, target)) return false;
  const [old] = scope.reachablePrimaries;
  if (old !== undefined) {
    const current = b.cluster(old) as Extract<ObservedCluster, { state: 'primary' }>;
    if (current.clusterId !== desired.clusterId) {
      b.refuse(`${target} is a DR secondary of another replication set than ${old}, the DR primary (their cluster ids differ): refusing to fail over across sets`);
      return false;
    }
    b.emit({ op: 'demote', cluster: old, newPrimary: target });
  }
  const gone = scope.unreachable;
  if (gone.length > 0) {
    if (!flags.allowUnreachablePrimary) {
      const why = old === undefined ? 'no DR primary is reachable and ' : `even with ${old} demoted, `;
      b.refuse(
        `${why}${listNames(gone)} ${isAre(gone)} unreachable and may still be DR primary (an old primary not back yet?): ` +
          `promoting ${target} now could make two primaries. If ${gone.length === 1 ? 'it is' : 'they are'} not a primary, plan again with ` +
          '--allow-unreachable-primary, and demote any old primary as soon as it returns',
      );
      return false;
    }
    b.note(
      'warning',
      `${target} is promoted while ${listNames(gone)} ${isAre(gone)} unreachable: ${gone.length === 1 ? `if ${gone[0]} is an old primary, it` : 'an old primary among them'} comes back as DR primary. ` +
        'It must be demoted when it returns: the next plan that sees it demotes it first and plans nothing else until then.',
    );
  } else if (old === undefined) {
    b.note('info', `no member of set ${set.name} is DR primary (an earlier failover stopped after the demotion?): ${target} is promoted`);
  }
  if (!tokenSourceFor(target, tokens)) {
    b.refuse(`promoting ${target} needs its DR operation token: add operationTokens.${target} or keyShares`);
    return false;
  }
  return b.emit({ op: 'promote', cluster: target, primaryClusterAddr: set.primaryClusterAddr, force: flags.force, unreachable: scope.unreachable });
}

function planEnablePrimary(b: SequenceBuilder, scope: SetScope, set: DrSetAttrs, flags: PrimaryFlags): boolean {
  const target = set.primary;
  if (refuseUndeclaredPrimaries(b, scope, target)) return false;
  const [current] = scope.reachablePrimaries;
  if (current !== undefined) {
    b.refuse(
      `${target} is DR-disabled while ${current} is the DR primary: making ${target} primary would start a new, empty replication set. ` +
        `List ${target} as a secondary of ${current} first; changing the primary afterwards is a failover`,
    );
    return false;
  }
  const holders = scope.members.filter((m) => m !== target && b.cluster(m).state === 'secondary');
  if (holders.length > 0) {
    b.refuse(
      `${target} is DR-disabled, no member is DR primary, and ${listNames(holders)} ${isAre(holders)} ${holders.length === 1 ? 'a DR secondary' : 'DR secondaries'} holding replicated data: ` +
        `enabling ${target} as a new primary would wipe them when they join. Make one of them the primary instead (it is promoted)`,
    );
    return false;
  }
  const unseen = scope.unreachable;
  if (unseen.length > 0 && !flags.allowUnreachablePrimary) {
    b.refuse(
      `${target} cannot be enabled as DR primary while ${listNames(unseen)} ${isAre(unseen)} unreachable: no reachable cluster is primary, ` +
        `so ${unseen.length === 1 ? 'it' : 'one of them'} may be. Plan again when ${unseen.length === 1 ? 'it is' : 'they are'} back, ` +
        'or with --allow-unreachable-primary if none is a primary',
    );
    return false;
  }
  return b.emit({ op: 'enable-primary', cluster: target, primaryClusterAddr: set.primaryClusterAddr });
}
