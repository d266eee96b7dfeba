import type { AccessChange, Escalation } from '../core/access.js';
import type { JsonObject, JsonValue } from '../core/json.js';
import type { Address } from '../core/address.js';
import type { Diagnostics } from '../core/diagnostics.js';
import { summarise, type Change, type Plan, type PlanNote, type PlanSummary, type Unmanaged } from '../core/plan.js';
import { isSecret, REDACTED } from '../core/secret.js';
import { diagnosticsToJson, type JsonDiagnostic } from './json-diagnostics.js';

/** A value as JSON carries it: an Address as its text (`east:auth/ldap/config`), lists item by item. */
type AsJson<T> = T extends Address ? string : T extends ReadonlyArray<infer U> ? Array<AsJson<U>> : T;

/**
 * The JSON form of each part of the plan, derived from core/plan's types (so the two cannot
 * drift apart): every field, optional ones always present, addresses as text. A change leaves
 * out what only apply reads (its guards and owner).
 */
type JsonOf<T, Internal extends keyof T = never> = { [K in Exclude<keyof T, Internal>]-?: AsJson<Exclude<T[K], undefined>> };
export type JsonChange = JsonOf<Change, 'guards' | 'owner'>;
/** One policy's gains and losses of the access review, the method as its address text; `escalation` null when none is called out. */
export type JsonAccessChange = Omit<JsonOf<AccessChange>, 'escalation'> & { escalation: JsonOf<Escalation> | null };

/** `--format json`: the shape scripts rely on (contract section 4). */
export interface JsonPlan {
  formatVersion: number;
  changes: JsonChange[];
  unmanaged: Array<JsonOf<Unmanaged>>;
  notes: Array<Omit<JsonOf<PlanNote>, 'address'> & { address?: string }>;
  /** The access review: per method and policy, the directory users who gain it and who lose it ([] when none ran). */
  accessChanges: JsonAccessChange[];
  summary: PlanSummary;
  /** What the engine found while planning: refusals, missing namespaces, reads that failed, warnings. */
  diagnostics: JsonDiagnostic[];
}

/** The plan as one pretty-printed JSON object. No trailing newline. */
export function renderPlanJson(plan: Plan, diagnostics?: Diagnostics): string {
  return JSON.stringify(planToJson(plan, diagnostics), null, 2);
}

function planToJson(plan: Plan, diagnostics: Diagnostics | undefined): JsonPlan {
  return {
    formatVersion: plan.formatVersion,
    changes: plan.changes.map(changeToJson),
    unmanaged: plan.unmanaged.map((u) => ({ address: String(u.address), resourceType: u.resourceType })),
    notes: plan.notes.map((n) => ({
      severity: n.severity,
      message: n.message,
      ...(n.address ? { address: String(n.address) } : {}),
    })),
    accessChanges: (plan.accessChanges ?? []).map((a) => ({
      method: String(a.method),
      policy: a.policy,
      gained: [...a.gained],
      lost: [...a.lost],
      escalation: a.escalation ? { ...a.escalation } : null,
    })),
    summary: summarise(plan),
    diagnostics: diagnosticsToJson(diagnostics),
  };
}

function changeToJson(c: Change): JsonChange {
  const sensitive = new Set(c.sensitiveFields);
  return {
    address: String(c.address),
    resourceType: c.resourceType,
    action: c.action,
    reason: c.reason,
    before: redactObject(c.before, sensitive),
    after: redactObject(c.after, sensitive),
    changedFields: [...c.changedFields],
    writeOnlyFields: [...c.writeOnlyFields],
    sensitiveFields: [...c.sensitiveFields],
    clearedFields: [...(c.clearedFields ?? [])],
    destructive: c.destructive,
    dependsOn: c.dependsOn.map(String),
    notes: [...c.notes],
  };
}

/**
 * A copy with sensitive fields as "(sensitive)" and any Secret (which a plan should never
 * carry) replaced too. The plan is already redacted; this is the second lock on the door.
 */
function redactObject(obj: JsonObject | null, sensitive: ReadonlySet<string>): JsonObject | null {
  if (obj === null) return null;
  const out: JsonObject = {};
  for (const [k, v] of Object.entries(obj)) {
    out[k] = sensitive.has(k) && v !== null ? REDACTED : redactDeep(v);
  }
  return out;
}

function redactDeep(v: unknown): JsonValue {
  if (isSecret(v)) return REDACTED;
  if (Array.isArray(v)) return v.map(redactDeep);
  if (v !== null && typeof v === 'object') {
    return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, redactDeep(x)]));
  }
  return v as JsonValue;
}
