import { fingerprintAll } from '../../../../src/core/fingerprint.js';
import type { ApplyOutcome } from '../../../../src/apply/applier.js';
import type { PlanFlags } from '../../../../src/kinds/kind.js';
import { drReplicationKind } from '../../../../src/kinds/dr-replication/index.js';
import { stepOfChange } from '../../../../src/kinds/dr-replication/step-of-change.js';
import type { Fault, WorldPool } from './client.js';
import { applyChanges, planOnce, type PlanResult } from './harness.js';
import type { DesiredSet } from './scenario.js';
import type { World } from './world-state.js';

/** Refusals the planner may give (each a documented, justified "no"); anything else is a bug. */
const JUSTIFIED_REFUSALS = [
  'none is the desired primary',
  'another replication set than',
  'may still be DR primary',
  'is DR-disabled while',
  'holding replicated data',
  'cannot be enabled as DR primary while',
  'that no DrReplication document names',
  'the desired DR primary, is unreachable',
  'unreachable: lockstep cannot confirm',
];

export class PropertyFailure extends Error {}

/** What the sequences exercised (printed by the model test, to show the coverage is real). */
export const coverage = {
  plans: 0,
  refused: new Map<string, number>(),
  refusedDestructive: 0,
  applies: 0,
  failedApplies: 0,
  faultsFired: 0,
  splitBrainDemotions: 0,
  stepsDone: new Map<string, number>(),
};

function count<K>(map: Map<K, number>, key: K): void {
  map.set(key, (map.get(key) ?? 0) + 1);
}

function check(condition: boolean, message: () => string): void {
  if (!condition) throw new PropertyFailure(message());
}

/** No text the world ever made secret appears in `text`. */
export function checkNoSecrets(world: World, what: string, text: string): void {
  for (const s of world.secrets) check(!text.includes(s), () => `${what} contains a secret (${s.slice(0, 6)}...): ${text.slice(0, 300)}`);
}

export function checkRefusals(errors: string[]): void {
  for (const e of errors) check(JUSTIFIED_REFUSALS.some((r) => e.includes(r)), () => `unexpected refusal: ${e}`);
}

/**
 * Reachable primaries that share a replication set (cluster id) with another reachable primary,
 * when one of them is a member of the desired set: what the next plan must demote first.
 */
function competingPrimaries(world: World, set: DesiredSet): string[] {
  const members = new Set([set.primary, ...set.secondaries]);
  const primaries = [...world.clusters.values()].filter((c) => c.reachable && c.mode === 'primary');
  const competing = primaries.filter((c) => primaries.some((o) => o !== c && o.clusterId === c.clusterId));
  return competing.some((c) => members.has(c.name)) ? competing.map((c) => c.name) : [];
}

export interface ApplyStepFlags {
  allowDestructive: boolean;
  allowUnreachablePrimary: boolean;
  force: boolean;
  /** The one request failure injected during the apply (never during the plan's reads). */
  fault?: Fault | null;
  /** Also re-read the world and compare fingerprints (they must ignore volatile fields). */
  checkFingerprints?: boolean;
}

/**
 * One plan + apply with every per-step property checked:
 * - the plan is deterministic (and, when asked, fingerprints ignore volatile status fields);
 * - refusals are justified; with several primaries in view the plan is only their demotion;
 * - no secret in the plan, its notes, its refusals or the apply's errors;
 * - during the apply: never two primaries among reachable clusters (except a documented
 *   stale primary, which only --allow-unreachable-primary may create), no wipe or orphaning
 *   without --allow-destructive (checked by the world as requests arrive);
 * - after the apply: every operation token generated and delivered is deleted, or its
 *   deletion was attempted and the apply failed.
 */
export async function planAndApply(world: World, pool: WorldPool, set: DesiredSet, flags: ApplyStepFlags): Promise<{ plan: PlanResult; outcome?: ApplyOutcome }> {
  const planFlags: PlanFlags = { syncSecrets: false, allowUnreachablePrimary: flags.allowUnreachablePrimary, force: flags.force };
  const competing = competingPrimaries(world, set);
  const plan = await planOnce(world, pool, set, planFlags);
  const replanned = drReplicationKind.plan!(plan.desired, plan.live, planFlags);
  check(JSON.stringify(replanned) === JSON.stringify(plan.plan), () => 'planning twice from the same live state gave different plans');
  if (flags.checkFingerprints) {
    const again = await planOnce(world, pool, set, planFlags);
    check(JSON.stringify(fingerprintAll(again.live.observed)) === JSON.stringify(fingerprintAll(plan.live.observed)), () => 'fingerprints changed between two reads of an unchanged world');
    check(JSON.stringify(again.plan) === JSON.stringify(plan.plan), () => 'planning twice on an unchanged world gave different plans');
  }
  checkNoSecrets(world, 'the plan', JSON.stringify(plan.plan));
  checkRefusals(plan.plan.errors.map((e) => e.message));
  coverage.plans++;
  for (const e of plan.plan.errors) count(coverage.refused, JUSTIFIED_REFUSALS.find((r) => e.message.includes(r))!);
  if (plan.plan.errors.length > 0) return { plan };
  if (competing.length > 1) {
    const ops = plan.changes.map((c) => stepOfChange(c).op);
    check(ops.length > 0 && ops.every((op) => op === 'demote' || op === 'disable-primary'), () => `with primaries ${competing.join(', ')} the plan must only demote, got ${ops.join(', ')}`);
    coverage.splitBrainDemotions++;
  }

  world.applyNumber++;
  world.context = { allowDestructive: flags.allowDestructive, allowUnreachablePrimary: flags.allowUnreachablePrimary };
  pool.faults.arm(flags.fault ?? undefined);
  const applied = await applyChanges(plan, pool, { allowDestructive: flags.allowDestructive }).finally(() => pool.faults.disarm());
  world.context = undefined;
  if (applied.refused) {
    coverage.refusedDestructive++;
    return { plan };
  }
  const { outcome } = applied;
  if (plan.changes.length > 0) coverage.applies++;
  if (outcome.failed.length > 0) coverage.failedApplies++;
  if (pool.faults.fired) coverage.faultsFired++;
  for (const c of outcome.done) count(coverage.stepsDone, stepOfChange(c).op);
  checkNoSecrets(world, 'the apply errors', JSON.stringify(outcome.failed.map((f) => f.error)));
  check(world.violations.length === 0, () => `invariant broken: ${world.violations.join('; ')}`);
  check(world.destructive.every((d) => d.allowed), () => `destructive action without --allow-destructive: ${JSON.stringify(world.destructive.filter((d) => !d.allowed))}`);
  const succeeded = outcome.failed.length === 0 && outcome.notStarted.length === 0;
  for (const [, g] of world.generated) {
    if (g.apply !== world.applyNumber || !g.delivered) continue;
    check(g.deleted || (g.deleteAttempted && !succeeded), () => `operation token generated on ${g.cluster} left behind (deleted=${g.deleted}, attempted=${g.deleteAttempted}, apply ok=${succeeded})`);
  }
  return { plan, outcome };
}

/** The world matches the desired set: one primary, every secondary follows it, no strays. */
export function checkConverged(world: World, set: DesiredSet): void {
  const p = world.cluster(set.primary);
  check(p.mode === 'primary', () => `${set.primary} is ${p.mode}, not primary`);
  for (const s of set.secondaries) check(world.follows(world.cluster(s), p), () => `${s} does not follow ${set.primary}`);
  check(
    [...p.knownSecondaries].sort().join() === [...set.secondaries].sort().join(),
    () => `${set.primary} knows secondaries ${[...p.knownSecondaries].join(', ')}, expected ${set.secondaries.join(', ')}`,
  );
  const members = new Set([set.primary, ...set.secondaries]);
  for (const c of world.clusters.values()) {
    if (members.has(c.name)) continue;
    check(!(c.mode !== 'disabled' && c.clusterId === p.clusterId), () => `${c.name} is still ${c.mode} of the set`);
  }
}

/**
 * A refused final plan asks the operator to choose: the model chooses as the refusal says
 * (keep a cluster that holds the data as primary).
 */
export function operatorFix(world: World, set: DesiredSet): DesiredSet {
  const members = [set.primary, ...set.secondaries];
  const undeclared = [...world.clusters.values()].filter((c) => c.mode === 'primary' && !members.includes(c.name)).map((c) => c.name);
  const all = [...members, ...undeclared];
  const primaries = all.filter((n) => world.cluster(n).mode === 'primary').sort();
  const holders = all.filter((n) => world.cluster(n).mode === 'secondary').sort();
  const primary = primaries[0] ?? holders[0] ?? set.primary;
  return { primary, secondaries: all.filter((n) => n !== primary) };
}
