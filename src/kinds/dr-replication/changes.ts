import type { JsonObject } from '../../core/json.js';
import type { Change } from '../../core/plan.js';
import type { Release } from '../../values/index.js';
import { guardsFor } from './guards.js';
import { skewWarning, type ReleaseSkew } from './release-order.js';
import { follows } from './observed.js';
import type { PlannedSequence } from './planner.js';
import type { TokenAvailability } from './secrets.js';
import type { SimState } from './simulator.js';
import { stepNotes } from './step-notes.js';
import { isDestructive, needsOperationToken, stepAddress, type Step } from './steps.js';
import { DR_STEP, type SecondaryOptions } from './types.js';

/** Fields a step sends that are secrets: shown as "(sensitive, write-only)", never as values. */
const OPERATION_TOKEN_FIELD = 'dr_operation_token';
const ACTIVATION_TOKEN_FIELD = 'token';

/**
 * The plan's changes for one set: one `transition` per step, each depending on the one before,
 * `before`/`after` the simulated state of its cluster around it, plus the parameters it sends
 * (everything apply needs except secrets, so what runs is what was reviewed). A step after which
 * an acknowledged release skew stands says so.
 */
export function changesOf(sequence: PlannedSequence, tokens: TokenAvailability, releases: ReadonlyMap<string, Release>): Change[] {
  const addresses = sequence.steps.map(stepAddress);
  return sequence.steps.map((step, i) => {
    const before = sequence.before[i]!;
    const after = sequence.before[i + 1] ?? sequence.final;
    const secretFields = [
      ...(needsOperationToken(step) ? [OPERATION_TOKEN_FIELD] : []),
      ...(step.op === 'enable-secondary' || step.op === 'update-primary' ? [ACTIVATION_TOKEN_FIELD] : []),
    ].sort();
    const beforeView = beforeOf(step, before);
    const afterView = afterOf(step, after);
    return {
      address: addresses[i]!,
      resourceType: DR_STEP,
      action: 'transition',
      reason: 'step',
      before: beforeView,
      after: afterView,
      changedFields: differingKeys(beforeView, afterView),
      writeOnlyFields: secretFields,
      sensitiveFields: secretFields,
      destructive: isDestructive(step),
      dependsOn: i === 0 ? [] : [addresses[i - 1]!],
      guards: guardsFor(step, before, releases),
      notes: [...stepNotes(step, tokens), ...skewNotes(sequence.skews[i] ?? [])],
    };
  });
}

/** The acknowledged skew standing after a step, said on it. */
function skewNotes(skews: readonly ReleaseSkew[]): string[] {
  return skews.length > 0 ? [skewWarning(skews)] : [];
}

/** The cluster's DR mode and, for a secondary, the primary it follows (null: none). */
function modeView(name: string, state: SimState): JsonObject {
  const c = state.clusters.get(name) ?? { state: 'unreachable' as const };
  switch (c.state) {
    case 'unreachable':
      return { reachable: false };
    case 'disabled':
    case 'primary':
      return { mode: c.state };
    case 'secondary': {
      const primary = [...state.clusters].find(([n, p]) => n !== name && follows(name, c, p));
      return { mode: 'secondary', follows: primary ? primary[0] : null };
    }
  }
}

function beforeOf(step: Step, state: SimState): JsonObject {
  const view = modeView(step.cluster, state);
  return step.op === 'revoke-secondary' ? { ...view, secondary_id: step.secondaryId } : view;
}

function afterOf(step: Step, state: SimState): JsonObject {
  const view = modeView(step.cluster, state);
  switch (step.op) {
    case 'enable-primary':
    case 'promote':
      return {
        ...view,
        ...(step.primaryClusterAddr ? { primary_cluster_addr: step.primaryClusterAddr } : {}),
        ...(step.op === 'promote' && step.force ? { force: true } : {}),
      };
    case 'secondary-token':
      return { ...view, id: step.secondary, ttl: step.ttlSeconds };
    case 'demote':
      // Not sent: apply waits until this cluster has received the demoted one's writes (catch-up.ts).
      return step.newPrimary ? { ...view, new_primary: step.newPrimary } : view;
    case 'enable-secondary':
    case 'update-primary':
      return { ...view, follows: step.primary, ...nonEmpty(step.options) };
    case 'disable-primary':
    case 'generate-public-key':
    case 'revoke-secondary':
    case 'disable-secondary':
    case 'delete-operation-token':
      return view;
  }
}

function nonEmpty(options: SecondaryOptions): JsonObject {
  return Object.fromEntries(Object.entries(options).filter(([, v]) => v !== ''));
}

/** The keys whose values differ between the step's before and after views (sorted). */
function differingKeys(a: JsonObject, b: JsonObject): string[] {
  const keys = new Set([...Object.keys(a), ...Object.keys(b)]);
  return [...keys].filter((k) => JSON.stringify(a[k]) !== JSON.stringify(b[k])).sort();
}
