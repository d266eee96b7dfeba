import type { ApplyReport } from './apply-report.js';
import type { Diagnostic } from '../core/diagnostics.js';
import { PLAN_FORMAT_VERSION, summarise, type Plan, type PlanSummary } from '../core/plan.js';
import { diagnosticsToJson, type JsonDiagnostic } from './json-diagnostics.js';
import type { JsonChange } from './json.js';

/** What became of one change of an apply. */
export const CHANGE_OUTCOMES = ['applied', 'failed', 'skipped'] as const;
type ChangeOutcome = (typeof CHANGE_OUTCOMES)[number];

/**
 * How the apply as a whole ended:
 * - applied:    every change was made.
 * - no-changes: the live state matched; nothing to do.
 * - failed:     a change failed; those before it (and running with it) may have been made.
 * - refused:    nothing was changed (invalid manifests, a refused or stale plan, no approval...).
 * - interrupted: a SIGINT or SIGTERM stopped the run: those marked applied were made (the ones
 *               in flight were let finish), skipped ones never started.
 */
export const APPLY_RESULTS = ['applied', 'no-changes', 'failed', 'refused', 'interrupted'] as const;
type ApplyResult = (typeof APPLY_RESULTS)[number];

/** A change as the apply report names it: the plan's own fields (a JsonChange's), and its outcome. */
export type JsonAppliedChange = Pick<JsonChange, 'address' | 'resourceType' | 'action' | 'reason' | 'destructive'> & {
  outcome: ChangeOutcome;
  /** For `failed`: what the server or the check said, one line, secret-free. */
  error?: string;
};

/** `apply --format json`: the shape scripts rely on (docs/commands.md, "JSON documents"). */
export interface JsonApply {
  formatVersion: number;
  result: ApplyResult;
  /** In the plan's order. */
  changes: JsonAppliedChange[];
  /** The plan's counts by action, and the changes' by outcome. */
  summary: PlanSummary & Record<ChangeOutcome, number>;
  /** Every problem: the manifests', the plan's, and what refused the run. */
  diagnostics: JsonDiagnostic[];
}

/** What an apply got to: its plan once made, the outcome once run, what was found on the way. */
export interface ApplyRecord {
  plan: Plan | undefined;
  outcome: ApplyReport | undefined;
  diagnostics: Diagnostic[];
  /** What ended the run before its changes ran (or after, while reporting), when something did. */
  refusal: string | undefined;
  /** The signal that stopped the run (SIGINT, SIGTERM), when one did. */
  interruptedBy?: string | undefined;
}

export function applyToJson(record: ApplyRecord): JsonApply {
  const plan = record.plan ?? { formatVersion: PLAN_FORMAT_VERSION, changes: [], unmanaged: [], notes: [] };
  const errors = new Map((record.outcome?.failed ?? []).map((f) => [String(f.change.address), f.error]));
  const done = new Set((record.outcome?.done ?? []).map((c) => String(c.address)));
  const changes = plan.changes.map((change): JsonAppliedChange => {
    const address = String(change.address);
    const error = errors.get(address);
    return {
      address,
      resourceType: change.resourceType,
      action: change.action,
      reason: change.reason,
      destructive: change.destructive,
      ...(error !== undefined ? { outcome: 'failed' as const, error } : { outcome: done.has(address) ? ('applied' as const) : ('skipped' as const) }),
    };
  });
  const count = (outcome: ChangeOutcome): number => changes.filter((c) => c.outcome === outcome).length;
  // A refusal that sums up the errors the diagnostics hold already ("2 errors in the manifests") is not said twice.
  // Otherwise it is about the invocation (no --auto-approve, --allow-destructive), counted with the manifests and flags.
  const explained = record.diagnostics.some((d) => d.severity === 'error');
  const refusal = record.refusal !== undefined && !explained ? [{ severity: 'error' as const, origin: 'manifest' as const, message: record.refusal }] : [];
  // A signal comes from where the run runs (a CI job cancelled, a Ctrl-C): the environment's.
  const interruption =
    record.interruptedBy !== undefined ? [{ severity: 'error' as const, origin: 'environment' as const, message: interruptionMessage(record) }] : [];
  return {
    formatVersion: plan.formatVersion,
    result: resultOf(record, plan),
    changes,
    summary: { ...summarise(plan), applied: count('applied'), failed: count('failed'), skipped: count('skipped') },
    diagnostics: diagnosticsToJson([...record.diagnostics, ...refusal, ...interruption]),
  };
}

/** What stderr says of the interruption, for the document's diagnostics. */
function interruptionMessage(record: ApplyRecord): string {
  return record.outcome === undefined
    ? `interrupted by ${record.interruptedBy} before any change started; nothing was changed`
    : `interrupted by ${record.interruptedBy}: no new change was started; the changes in flight were let finish`;
}

function resultOf(record: ApplyRecord, plan: Plan): ApplyResult {
  const { outcome } = record;
  if (record.interruptedBy !== undefined) return 'interrupted';
  if (outcome !== undefined) return outcome.failed.length > 0 || outcome.notStarted.length > 0 ? 'failed' : 'applied';
  if (record.refusal === undefined && record.plan !== undefined && plan.changes.length === 0) return 'no-changes';
  return 'refused';
}
