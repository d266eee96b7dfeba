import { RedactionSet } from '../../../../src/core/redaction.js';
import { runChanges, type ApplyOutcome } from '../../../../src/apply/applier.js';
import type { Change } from '../../../../src/core/plan.js';
import type { DesiredState, LiveState } from '../../../../src/core/resource.js';
import { collectSecretTexts, scrub } from '../../../../src/core/secret.js';
import { drReplicationKind } from '../../../../src/kinds/dr-replication/index.js';
import type { KindPlan, PlanFlags } from '../../../../src/kinds/kind.js';
import { orderChanges } from '../../../../src/order/order.js';
import { drDoc, kindContext, type DocSpec } from '../fixtures.js';
import type { WorldPool } from './client.js';
import { SHARES, type World } from './world-state.js';

export interface PlanResult {
  desired: DesiredState;
  live: LiveState;
  plan: KindPlan;
  /** In execution order, as the pipeline orders them. */
  changes: Change[];
}

/** desired → read → plan → order, as commands/pipeline.ts does for one kind. */
export async function planOnce(world: World, pool: WorldPool, spec: DocSpec, flags: PlanFlags): Promise<PlanResult> {
  const names = [...world.clusters.keys()];
  const ctx = kindContext(names);
  const doc = drDoc({ keyShares: SHARES, ...spec });
  const desired = drReplicationKind.desired([doc], ctx);
  const live = await drReplicationKind.read(desired, pool);
  const plan = drReplicationKind.plan!(desired, live, flags);
  return { desired, live, plan, changes: plan.errors.length > 0 ? [] : orderChanges(plan.changes) };
}

export type ApplyResult = { refused: 'destructive' } | { refused: false; outcome: ApplyOutcome };

/**
 * apply as commands/apply.ts does it: refuse destructive steps without --allow-destructive,
 * then run the changes with the real applier. The desired set is handed to every step (what
 * the lead's apply.ts must do for transitions; see the report).
 */
export async function applyChanges(result: PlanResult, pool: WorldPool, flags: { allowDestructive: boolean }): Promise<ApplyResult> {
  if (result.changes.length === 0) return { refused: false, outcome: { done: [], failed: [], notStarted: [] } };
  if (result.changes.some((c) => c.destructive) && !flags.allowDestructive) return { refused: 'destructive' };
  const desired = result.desired.resources[0];
  const run = new Map<string, unknown>();
  // Only what the pipeline scrubs (the manifests' secrets): anything else must never get there.
  const secretTexts = [...collectSecretTexts(desired?.writeOnly ?? {})];
  const outcome = await runChanges(
    result.changes,
    (change) => drReplicationKind.apply(change, desired, { client: pool.get(change.address.cluster), clients: pool, run, redaction: new RedactionSet() }),
    { concurrency: 4, describeError: (err) => scrub(err instanceof Error ? err.message : String(err), secretTexts) },
  );
  return { refused: false, outcome };
}
