import type { Release } from '../../values/index.js';
import type { ObservedCluster } from './observed.js';
import { planPrimary, planSplitBrain, type PrimaryFlags } from './plan-primary.js';
import { planRemovals, planSecondaries } from './plan-members.js';
import { setScope, type SetScope } from './scope.js';
import { tokenSourceFor, type TokenAvailability } from './secrets.js';
import { SequenceBuilder, type SetNote } from './sequence-builder.js';
import { initialState, simulate, type SimState } from './simulator.js';
import { describeSkews, safeOrder, SKEW_ACKNOWLEDGEMENT, skewsOf, type ReleaseSkew } from './release-order.js';
import { needsOperationToken, stepKey, type Step } from './steps.js';
import type { DrSetAttrs } from './types.js';

export interface PlanSetInput {
  set: DrSetAttrs;
  /** Status of every cluster read for the set (members and unassigned clusters). */
  observed: ReadonlyMap<string, ObservedCluster>;
  /** The release each reachable cluster reports (absent: not reported). */
  releases: ReadonlyMap<string, Release>;
  tokens: TokenAvailability;
  flags: PrimaryFlags;
}

export interface PlannedSequence {
  /** Strictly sequential: step i+1 runs after step i. Empty when refused. */
  steps: Step[];
  /** The state the first step starts from (presumed primaries included). */
  initial: SimState;
  /** The simulated state before each step (what its guards expect). */
  before: SimState[];
  /** The simulated state after the last step. */
  final: SimState;
  scope: SetScope;
  notes: SetNote[];
  /** Refusals; when any, `steps` is empty. */
  errors: string[];
  /** Per step: the primaries left on a newer release than a secondary following them (acknowledged, or none). */
  skews: ReleaseSkew[][];
}

/**
 * Plans one replication set: from the observed DR modes to the desired roles, as one ordered
 * sequence of steps that never has two primaries. Pure: the same input gives the same plan.
 *
 * Order: (A) several primaries → only their demotion; (B) the desired primary: failover or
 * enable; (C) each desired secondary: enable, update-primary, or disable + enable; (D) members
 * no longer listed: revoke, then disable; then one operation-token delete after the last use
 * of each token generated from key shares. The whole sequence is then proven by simulation.
 */
export function planSequence(input: PlanSetInput): PlannedSequence {
  const scope = setScope(input.set, input.observed);
  const initial = initialState(scope.clusters, unseenPrimaries(scope, input.flags));
  const b = new SequenceBuilder(initial);
  if (!planSplitBrain(b, scope) && planPrimary(b, scope, input.set, input.tokens, input.flags)) {
    planSecondaries(b, input.set, input.tokens, input.flags);
    planRemovals(b, scope, input.set, input.tokens, input.observed);
  }
  if (scope.undeclaredPrimaries.length > 0 && !b.refused) {
    b.note('warning', `${scope.undeclaredPrimaries.join(', ')}: DR primary not named by any DrReplication document; lockstep leaves it alone and makes no other primary while it is visible`);
  }
  const refused = (errors: string[]): PlannedSequence => ({ steps: [], initial, before: [], final: initial, scope, notes: b.notes, errors, skews: [] });
  if (b.refused) return refused(b.errors);

  const steps = withTokenDeletes(b.steps, input.tokens);
  const proof = simulate(initial, steps);
  if (!proof.ok) return refused([`refusing a sequence that breaks the DR rules at step ${proof.index + 1}: ${proof.reason}`]);
  const unique = new Set(steps.map(stepKey));
  if (unique.size !== steps.length) return refused(['the planned steps do not have distinct addresses (a planner bug); nothing is planned']);
  const acknowledged = input.set.acknowledge.includes(SKEW_ACKNOWLEDGEMENT);
  const skews = steps.map((_, i) => skewsOf(proof.before[i + 1] ?? proof.final, input.releases));
  if (steps.length === 0) noteStandingSkews(b, skewsOf(initial, input.releases), acknowledged);
  else if (!acknowledged && skews.some((s) => s.length > 0)) return refused([skewRefusal(steps, skews, initial)]);
  return { steps, initial, before: proof.before, final: proof.final, scope, notes: b.notes, errors: [], skews };
}

/**
 * Nothing to plan, yet a primary already replicates to an older release (upgraded first, or a
 * secondary downgraded): no step can fix that, the upgrade can. A warning, every plan until then.
 */
function noteStandingSkews(b: SequenceBuilder, skews: ReleaseSkew[], acknowledged: boolean): void {
  if (skews.length === 0) return;
  const tail = acknowledged ? ` (acknowledged as ${SKEW_ACKNOWLEDGEMENT})` : '';
  b.note('warning', `${describeSkews(skews)}: a DR primary replicates to an older release, which is unsafe${tail}; ${safeOrder(skews)}`);
}

/** Names the first step that leaves a skew, every skew of the plan, and the safe order. */
function skewRefusal(steps: readonly Step[], skews: readonly ReleaseSkew[][], initial: SimState): string {
  const first = skews.findIndex((s) => s.length > 0);
  const all = [...new Map(skews.flat().map((s) => [`${s.primary}>${s.secondary}`, s])).values()];
  const primaries = new Set(all.map((s) => s.primary));
  const oldPrimary = all.map((s) => s.secondary).find((n) => !primaries.has(n) && initial.clusters.get(n)?.state === 'primary');
  return (
    `refusing a plan that leaves a DR primary on a newer release than a secondary following it: after ${stepKey(steps[first]!)}, ${describeSkews(skews[first]!)}. ` +
    `Replicating from a newer release to an older one is unsafe: ${safeOrder(all)}` +
    (oldPrimary === undefined
      ? ''
      : `. To fail over while ${oldPrimary} is upgraded, stop it and plan with --allow-unreachable-primary: it is re-attached by a plan that sees it on a new enough release`) +
    `. To go ahead anyway, add ${SKEW_ACKNOWLEDGEMENT} to the document's acknowledge list`
  );
}

/**
 * Every unreachable cluster in scope may be a primary (an old one, still serving where lockstep
 * cannot see), unless --allow-unreachable-primary says none is.
 */
function unseenPrimaries(scope: SetScope, flags: PrimaryFlags): Set<string> {
  if (flags.allowUnreachablePrimary) return new Set();
  return new Set(scope.unreachable.filter((n) => n !== scope.primary));
}

/** One `operation-token/delete` right after the last step that uses each generated token. */
function withTokenDeletes(steps: readonly Step[], tokens: TokenAvailability): Step[] {
  const lastUse = new Map<string, number>();
  steps.forEach((s, i) => {
    if (needsOperationToken(s) && tokenSourceFor(s.cluster, tokens) === 'generated') lastUse.set(s.cluster, i);
  });
  return steps.flatMap((s, i) => (lastUse.get(s.cluster) === i ? [s, { op: 'delete-operation-token', cluster: s.cluster } satisfies Step] : [s]));
}
