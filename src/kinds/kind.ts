import type { AccessChange } from '../core/access.js';
import type { JsonValue } from '../core/json.js';
import type { RedactionSet } from '../core/redaction.js';
import type { Address } from '../core/address.js';
import type { ClusterTarget } from '../core/cluster.js';
import type { Diagnostics, SourcePos } from '../core/diagnostics.js';
import type { Change, PlanNote, Refusal, Unmanaged } from '../core/plan.js';
import type { DesiredResource, DesiredState, LiveState } from '../core/resource.js';
import type { ClusterClient } from '../client/types.js';
import type { ResolvedDocument, ValuePath } from '../load/document.js';
import type { ServerFeature } from './feature.js';

/** What validation and normalisation may look at besides the documents themselves. */
export interface KindContext {
  clusters: ReadonlyMap<string, ClusterTarget>;
  /** `--prune` on the command line (adds to each document's own `prune`). */
  prune: boolean;
}

/** Command-line choices a kind's planner may need (e.g. DR: promote while the old primary is unreachable). */
export interface PlanFlags {
  syncSecrets: boolean;
  allowUnreachablePrimary: boolean;
  force: boolean;
}

/** What a kind's own planner returns: changes (any order; order/ sorts them), notes, and refusals. */
export interface KindPlan {
  changes: Change[];
  unmanaged: Unmanaged[];
  notes: PlanNote[];
  /** Reasons the plan is refused (e.g. a sequence that would make two primaries): exit 1, nothing applied. */
  errors: Refusal[];
}

/** What apply gives a kind for one change. */
export interface ApplyContext {
  /** The client of the change's cluster. */
  client: ClusterClient;
  /** Every cluster's client (multi-cluster steps). */
  clients: ClientPool;
  /**
   * Scratch shared by the changes of one apply run, for values that flow from one step to the
   * next (e.g. an activation token): never printed, never saved.
   */
  run: Map<string, unknown>;
  /** The run's redaction set: a secret made during the apply (an operation token) joins it. */
  redaction: RedactionSet;
}

/** What `check` gives every kind. */
export interface CheckOptions {
  /** `--user`: the LDAP user to look up. */
  user?: string;
  /** The clock reading certificates are judged by: validation's (Prepared.now), so both agree. */
  now: Date;
}

/** One finding of `check`. */
export interface CheckFinding {
  ok: boolean;
  /** Passes, but needs someone's attention (e.g. a certificate ending within 30 days). */
  warning?: true;
  /** What was checked, e.g. `ldap://127.0.0.1:389 bind as cn=svc,...`. Never a secret. */
  subject: string;
  message: string;
  address?: Address;
}

/**
 * A policy a document names (an LDAP group's `policies`, a config's `token_policies`): where,
 * for the check that it exists (engine/policies.ts).
 */
export interface PolicyReference {
  cluster: string;
  /** '' for the root namespace: a login there looks the policy up there. */
  namespace: string;
  /** As written (trimmed): the message quotes it. */
  name: string;
  /** The manifest position of the item that names it (computed when a warning needs it). */
  pos: () => SourcePos;
}

/** What a kind's access review is given: the run's desired state, what the plan read, the plan's changes. */
export interface AccessReviewInput {
  desired: DesiredState;
  /** Every object the plan read, by address text (LiveState.observed of every kind). */
  observed: Readonly<Record<string, JsonValue | null>>;
  /** The plan's changes, after --target. */
  changes: readonly Change[];
  /** What the kind's read started ahead for this review (ReadOptions.readAhead), to take instead of starting it again. */
  readAhead?: ReadAhead;
}

/**
 * Work a kind's read starts ahead for the plan's access review, as soon as what it has read
 * shows that the review will need it (the LDAP method's directory read needs only the config):
 * it then runs while the rest of the plan is read, and the review takes it by the same key.
 * The engine gives one only when a review can run (not `--access-review off`, not `--target`).
 */
export interface ReadAhead {
  /**
   * Keeps `work` under `key`, or abandons it at once (another is held, or the plan is over).
   * Its rejection is the taker's to handle (never unhandled). Work nobody takes (the plan ended
   * first) is abandoned with `abandon`, so that it keeps no connection open after the run.
   */
  start(key: string, work: Promise<unknown>, abandon: () => void): void;
  /** What was started under `key` (once), if anything. */
  take(key: string): Promise<unknown> | undefined;
}

/** How a kind's read is run. */
export interface ReadOptions {
  /** Where to start work for the access review ahead of the plan's end; absent: start none. */
  readAhead?: ReadAhead;
}

export interface AccessReviewResult {
  /** The methods reviewed (their users' policies before and after compared). */
  reviewed: Address[];
  accessChanges: AccessChange[];
  /** Methods whose review could not be made, and why. */
  skipped: Array<{ method: Address; reason: string }>;
}

export interface ClientPool {
  get(cluster: string): ClusterClient;
}

/**
 * One module per resource kind: its schema, its rules, its normalisation, how to read it and
 * how to write it. Adding a kind touches its folder plus one line in kinds/registry.ts.
 */
export interface KindModule<T = Record<string, unknown>> {
  /** The manifest `kind`, e.g. `LdapAuth`. */
  readonly kind: string;
  /** The resource types its desired states hold (changes of these types are applied by it). */
  readonly resourceTypes: readonly string[];
  /**
   * `cluster` (default): each document belongs to one cluster and namespace (`cluster`,
   * `namespace` fields, filled in by prepare). `none`: the kind names its clusters itself (DR).
   */
  readonly placement?: 'cluster' | 'none';
  /**
   * What the server must serve for this kind (kinds/feature.ts): where it does not, each of the
   * kind's documents on that cluster is one located error, and the other kinds still plan.
   */
  readonly feature: ServerFeature;
  /** File name of its JSON Schema in `schemas/`. */
  readonly schemaFile: string;
  /** Paths of secret fields in a raw document value (literal secrets are refused; values become Secret). */
  secretPaths(value: unknown): ValuePath[];
  /** The spec's semantic rules across all documents of this kind; run after the schema passed. */
  validate(docs: ReadonlyArray<ResolvedDocument<T>>, diags: Diagnostics, ctx: KindContext): void;
  /**
   * The rules about single values of one document (a name, a mount path, a field's own form, a
   * policy's text), each reported at its value: `validate` runs them, and prepare runs them alone
   * on what is left of a document that failed its schema or a reference (validate/salvage.ts), so
   * they must take any shape the schema lets through: a field missing, placement not done
   * (test/kinds/check-values.property.test.ts). Never a rule between fields.
   */
  checkValues?(doc: ResolvedDocument, diags: Diagnostics): void;
  /** Normalised desired objects (inputs are not mutated). Only called when validation passed. */
  desired(docs: ReadonlyArray<ResolvedDocument<T>>, ctx: KindContext): DesiredState;
  /** Reads the live objects the desired state concerns (every collection in full). */
  read(desired: DesiredState, clients: ClientPool, opts?: ReadOptions): Promise<LiveState>;
  /**
   * The desired state once the live state is read, where a server setting the manifests leave
   * unmanaged decides a desired value (an LDAP mount's name case when its config is not
   * managed). Pure; without it, the desired state is as normalised.
   */
  settle?(desired: DesiredState, live: LiveState): DesiredState;
  /**
   * Plans this kind's changes when a field-by-field diff is not enough (multi-step transitions).
   * Pure. Without it, the generic diff (diff/diff.ts) plans the kind.
   */
  plan?(desired: DesiredState, live: LiveState, flags: PlanFlags): KindPlan;
  /**
   * Located warnings that need what was read (a user's local group that no manifest and no
   * server defines). Pure; run after the reads, for the documents whose state was read.
   */
  reviewAgainstLive?(docs: ReadonlyArray<ResolvedDocument<T>>, desired: DesiredState, live: LiveState, diags: Diagnostics): void;
  /** Carries out one change. `desired` is given for create/update (it holds write-only values). */
  apply(change: Change, desired: DesiredResource | undefined, ctx: ApplyContext): Promise<void>;
  /**
   * Live objects of this kind on one cluster as manifest documents: server values as they are
   * (the writer escapes them), secrets to fill in as EnvReference (load/manifest-writer.ts).
   * Objects left out on purpose (a name that cannot be addressed) are said in `notes`.
   */
  export?(client: ClusterClient, cluster: ClusterTarget, notes: PlanNote[]): Promise<Record<string, unknown>[]>;
  /**
   * Preflight of the outside world the desired objects point at. `clients` (when given) lets a
   * kind also ask the server about health (snapshot status); a cluster may be missing from it
   * (check does not require clusters), so `clients.get` may throw: handle it.
   */
  check?(desired: DesiredState, opts: CheckOptions, clients?: ClientPool): Promise<CheckFinding[]>;
  /** The policies its documents (valid, placed) name, each where it is written: checked to exist on the server or in the run. */
  policyReferences?(docs: ReadonlyArray<ResolvedDocument<T>>): PolicyReference[];
  /**
   * The access review of a plan: which users gain or lose which policies at login when the
   * changes are made, read from the outside world the logins consult (a directory).
   */
  reviewAccess?(input: AccessReviewInput): Promise<AccessReviewResult>;
}
