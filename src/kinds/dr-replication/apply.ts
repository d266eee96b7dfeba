import type { Change } from '../../core/plan.js';
import type { DesiredResource } from '../../core/resource.js';
import { collectSecretTexts, scrub } from '../../core/secret.js';
import type { ApplyContext, ClientPool } from '../kind.js';
import { guardMismatch } from './guards.js';
import { deleteOperationToken } from './operation-token.js';
import { drRunStore, type DrRunStore } from './run-store.js';
import { readStatus } from './status-read.js';
import { executeStep } from './step-calls.js';
import { stepOfChange } from './step-of-change.js';

/**
 * Carries out one DR step: re-reads the status of every cluster the step involves and refuses
 * if the world moved since the plan; then sends the step. If anything fails, every operation
 * token generated in this run and not yet deleted is deleted before the error is reported (the
 * applier starts nothing after a failure, so nothing would use them), and the error is
 * scrubbed of every secret text the run has seen.
 */
export async function applyDrChange(change: Change, desired: DesiredResource | undefined, ctx: ApplyContext): Promise<void> {
  if (change.action !== 'transition') throw new Error(`${change.address}: DR replication changes only by transition steps`);
  const store = drRunStore(ctx.run, ctx.redaction);
  try {
    const step = stepOfChange(change);
    await checkGuards(change, ctx.clients);
    await executeStep(step, desired, ctx, store);
  } catch (err) {
    const leftover = await deletePendingTokens(ctx.clients, store);
    const secrets = new Set([...store.sensitiveTexts(), ...collectSecretTexts(desired?.writeOnly ?? {})]);
    const base = err instanceof Error ? err.message : String(err);
    const tail =
      leftover.length === 0
        ? ''
        : `; the DR operation token generated on ${leftover.join(', ')} could not be deleted: it stays valid (it has no TTL) and this run no longer holds it`;
    throw new Error(scrub(`${base}${tail}`, secrets));
  }
}

/** Re-reads the statuses a step's guards name; throws "the world moved: ..." on any difference. */
async function checkGuards(change: Change, clients: ClientPool): Promise<void> {
  const mismatches = await Promise.all(
    change.guards.map(async (guard) => {
      const { attrs } = await readStatus(clients.get(guard.address.cluster));
      return guardMismatch(guard.address.cluster, guard.expect, attrs);
    }),
  );
  const moved = mismatches.filter((m): m is string => m !== undefined);
  if (moved.length > 0) {
    throw new Error(`${change.address}: the world moved since the plan: ${moved.join('; ')}; nothing was sent for this step, run plan again`);
  }
}

/** Best effort; returns the clusters whose generated token could not be deleted. */
async function deletePendingTokens(clients: ClientPool, store: DrRunStore): Promise<string[]> {
  const left: string[] = [];
  for (const [cluster, token] of store.pendingGenerated()) {
    try {
      await deleteOperationToken(clients.get(cluster), token);
      store.forgetGenerated(cluster);
    } catch {
      left.push(cluster);
    }
  }
  return left;
}
