import type { AccessChange } from './access.js';
import type { Address } from './address.js';
import type { JsonObject } from './json.js';

/** Version of the JSON plan format (`--format json` and saved plans). */
export const PLAN_FORMAT_VERSION = 1;

/**
 * What a change does. The JSON names are fixed by the contract.
 * - create:     the object does not exist; `before` is null, `after` is the desired object.
 * - update:     the object exists and differs; `before` is the live object as read, `after` the
 *               desired one (both normalised the same way, so field-by-field comparable).
 * - delete:     the object exists and must go; `before` is the live object, `after` is null.
 * - transition: a step of a multi-step operation (a DR failover) that is not a plain
 *               write of one object; `before` is the observed state the step starts from
 *               (e.g. `{mode: "secondary"}`), `after` the state it leads to.
 */
export const ACTIONS = ['create', 'update', 'delete', 'transition'] as const;
export type Action = (typeof ACTIONS)[number];

/**
 * Why the change is in the plan.
 * - declared:     a manifest asks for it.
 * - prune:        the object is on the server, no manifest lists it, and pruning is on.
 * - sync-secrets: nothing comparable changed; `apply --sync-secrets` re-sends write-only fields.
 * - replace:      one half of a delete-then-create (e.g. a managed key changing type).
 * - step:         one step of a multi-step transition.
 */
export const CHANGE_REASONS = ['declared', 'prune', 'sync-secrets', 'replace', 'step'] as const;
export type ChangeReason = (typeof CHANGE_REASONS)[number];

/** A precondition re-checked just before the change runs (apply re-reads and refuses on a mismatch). */
export interface Guard {
  /** Whose state the guard reads. */
  address: Address;
  /** Human description, e.g. `east is DR primary`. */
  description: string;
  /** Expected fingerprint or field values; interpreted by the kind that made the guard. */
  expect: JsonObject;
}

export interface Change {
  address: Address;
  /** The resource type that knows how to carry the change out, e.g. `ldap.group` (see kinds/registry). */
  resourceType: string;
  action: Action;
  reason: ChangeReason;
  /** See Action for what before/after hold per action. Secret values are already "(sensitive)". */
  before: JsonObject | null;
  after: JsonObject | null;
  /** Fields whose values differ (update), or every field set (create/delete). Sorted. */
  changedFields: string[];
  /** Fields the server never returns; sent whenever the object is written (contract section 5). */
  writeOnlyFields: string[];
  /** Fields whose values are rendered as "(sensitive)". */
  sensitiveFields: string[];
  /**
   * Write-only fields the manifest does not set: the write sends them empty, and the plan shows
   * them as cleared (contract section 5). A subset of writeOnlyFields; absent in plans saved
   * before it existed.
   */
  clearedFields?: string[];
  /** Wipes or orphans data, or takes access away (a pruned LDAP user or group): runs only with --allow-destructive. */
  destructive: boolean;
  /** Changes that must complete first. */
  dependsOn: Address[];
  /**
   * The desired object this change carries out, when its own address holds none: the steps of
   * a transition (a DR failover) all carry out their replication set. Absent otherwise.
   */
  owner?: Address;
  guards: Guard[];
  /** Plain sentences shown under the change, e.g. why it is destructive. */
  notes: string[];
}

/** A live object no manifest lists, left alone because pruning is off. */
export interface Unmanaged {
  address: Address;
  resourceType: string;
}

/**
 * Why a plan cannot be carried out, about one object (e.g. deleting a managed key a mount still
 * lists): the plan is refused, unless --target leaves that object out.
 */
export interface Refusal {
  address: Address;
  message: string;
}

/** A notice attached to the whole plan (not a change), e.g. an unreachable cluster. */
export const NOTE_SEVERITIES = ['info', 'warning'] as const;

export interface PlanNote {
  severity: (typeof NOTE_SEVERITIES)[number];
  message: string;
  address?: Address;
}

export interface Plan {
  formatVersion: typeof PLAN_FORMAT_VERSION;
  /** In execution order (dependencies first, then by address). */
  changes: Change[];
  unmanaged: Unmanaged[];
  notes: PlanNote[];
  /**
   * The access review (who gains or loses which policy at login), by method then policy;
   * absent when none ran (no change that decides a login's policies, or `--access-review off`).
   */
  accessChanges?: AccessChange[];
}

export interface PlanSummary {
  add: number;
  change: number;
  delete: number;
  transition: number;
  /** Of all the above, those that are destructive (Change.destructive). */
  destructive: number;
}

export function summarise(plan: Plan): PlanSummary {
  const s: PlanSummary = { add: 0, change: 0, delete: 0, transition: 0, destructive: 0 };
  for (const c of plan.changes) {
    if (c.destructive) s.destructive++;
    switch (c.action) {
      case 'create':
        s.add++;
        break;
      case 'update':
        s.change++;
        break;
      case 'delete':
        s.delete++;
        break;
      case 'transition':
        s.transition++;
        break;
      default:
        assertNever(c.action);
    }
  }
  return s;
}

export function assertNever(x: never): never {
  throw new Error(`unexpected value: ${String(x)}`);
}
