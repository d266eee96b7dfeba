import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { FaultInjector, WorldPool } from './model/client.js';
import { checkConverged, checkRefusals, coverage, operatorFix, planAndApply } from './model/properties.js';
import { failover, scenarioArb, type DesiredSet, type Scenario } from './model/scenario.js';
import { World } from './model/world-state.js';

/**
 * Model-based tests: random sequences of desired sets, outages, clock ticks and plan+apply
 * runs (each with at most one injected request failure) against the in-memory world. The
 * per-run properties are in model/properties.ts; at the end of every sequence all clusters
 * come back and plan+apply is repeated until the plan is empty, which must happen.
 *
 * Reproduce a failure with DR_MODEL_SEED=<seed> (printed on failure). The suite runs 2,500
 * sequences, enough to reach every step and every refusal (asserted below); DR_MODEL_FULL=1
 * runs the full 10,000 (or set DR_MODEL_RUNS_3 / DR_MODEL_RUNS_4).
 */
const SEED = Number(process.env['DR_MODEL_SEED'] ?? 20_250_611);
const FULL = process.env['DR_MODEL_FULL'] === '1';
const RUNS_3 = Number(process.env['DR_MODEL_RUNS_3'] ?? (FULL ? 6_000 : 1_500));
const RUNS_4 = Number(process.env['DR_MODEL_RUNS_4'] ?? (FULL ? 4_000 : 1_000));
const STEPS = ['enable-primary', 'generate-public-key', 'secondary-token', 'enable-secondary', 'promote', 'delete-operation-token', 'update-primary', 'demote', 'disable-secondary', 'revoke-secondary', 'disable-primary'];
const MAX_FINAL_ROUNDS = 8;

async function runScenario(s: Scenario): Promise<void> {
  const world = new World(s.names);
  const pool = new WorldPool(world, new FaultInjector());
  let desired: DesiredSet = s.initial;
  if (s.bootstrap) {
    await planAndApply(world, pool, desired, { allowDestructive: true, allowUnreachablePrimary: false, force: false });
    world.tick();
  }
  for (const action of s.actions) {
    switch (action.type) {
      case 'desire':
        desired = action.set;
        break;
      case 'failover':
        desired = failover(desired, action.to);
        break;
      case 'primary-outage':
        world.setReachable(desired.primary, false);
        break;
      case 'outage':
        world.setReachable(action.cluster, false);
        break;
      case 'recover':
        world.setReachable(action.cluster, true);
        break;
      case 'tick':
        world.tick();
        break;
      case 'apply':
        await planAndApply(world, pool, desired, action);
        break;
    }
    expect(world.violations, 'invariant').toEqual([]);
  }
  await converge(world, pool, desired);
}

/** All clusters back, time passes, plan+apply until the plan is empty. */
async function converge(world: World, pool: WorldPool, start: DesiredSet): Promise<void> {
  for (const name of world.clusters.keys()) world.setReachable(name, true);
  world.tick();
  let desired = start;
  for (let round = 0; round < MAX_FINAL_ROUNDS; round++) {
    // An operator whose promotion is refused for a secondary still syncing forces it.
    const { plan } = await planAndApply(world, pool, desired, { allowDestructive: true, allowUnreachablePrimary: false, force: round >= 2, checkFingerprints: true });
    if (plan.plan.errors.length > 0) {
      checkRefusals(plan.plan.errors.map((e) => e.message));
      desired = operatorFix(world, desired);
    } else if (plan.changes.length === 0) {
      checkConverged(world, desired);
      return;
    }
    world.tick();
  }
  throw new Error(`no empty plan after ${MAX_FINAL_ROUNDS} rounds with every cluster reachable (desired primary ${desired.primary})`);
}

async function assertModel(clusterCount: number, numRuns: number): Promise<void> {
  const started = Date.now();
  try {
    await fc.assert(fc.asyncProperty(scenarioArb(clusterCount), runScenario), { seed: SEED, numRuns, endOnFailure: false });
  } catch (err) {
    const cause = (err as { cause?: unknown }).cause;
    const detail = cause instanceof Error ? `\ncause: ${cause.message}` : '';
    throw new Error(`DR model (${clusterCount} clusters) failed with seed ${SEED} (rerun: DR_MODEL_SEED=${SEED}):\n${(err as Error).message}${detail}`);
  }
  console.log(`DR model: ${numRuns} sequences over ${clusterCount} clusters in ${((Date.now() - started) / 1000).toFixed(1)}s (seed ${SEED})`);
}

describe('DR replication against the in-memory world (model-based)', () => {
  afterAll(() => {
    const map = (m: Map<string, number>): string => [...m].map(([k, v]) => `${k} ${v}`).join(', ');
    console.log(
      `DR model coverage: ${coverage.plans} plans, ${coverage.applies} applies (${coverage.failedApplies} failed, ${coverage.faultsFired} with a fault fired), ` +
        `${coverage.refusedDestructive} refused for destructive steps, ${coverage.splitBrainDemotions} split-brain plans\n  refusals: ${map(coverage.refused)}\n  steps done: ${map(coverage.stepsDone)}`,
    );
  });
  it(`${RUNS_3} random sequences over 3 clusters keep the invariants and converge`, () => assertModel(3, RUNS_3), 300_000);
  it(`${RUNS_4} random sequences over 4 clusters keep the invariants and converge`, () => assertModel(4, RUNS_4), 300_000);
  // A smaller run must still reach every step, failed and refused applies and split-brain plans.
  it('the sequences reached every step and every kind of refusal', () => {
    for (const step of STEPS) expect(coverage.stepsDone.get(step) ?? 0, step).toBeGreaterThan(0);
    expect(coverage.failedApplies).toBeGreaterThan(0);
    expect(coverage.faultsFired).toBeGreaterThan(0);
    expect(coverage.refusedDestructive).toBeGreaterThan(0);
    expect(coverage.splitBrainDemotions).toBeGreaterThan(0);
    expect(coverage.refused.size).toBeGreaterThanOrEqual(7);
  });
});
