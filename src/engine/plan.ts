import { calledOutFirst, type AccessChange, type AccessReviewMode } from '../core/access.js';
import { Address, AddressMap } from '../core/address.js';
import { didYouMean } from '../core/suggest.js';
import { Diagnostics, type DiagnosticOrigin } from '../core/diagnostics.js';
import { isApiError, isTransportError } from '../client/errors.js';
import type { JsonValue } from '../core/json.js';
import { PLAN_FORMAT_VERSION, type Change, type Plan, type PlanNote, type Refusal, type Unmanaged } from '../core/plan.js';
import type { DesiredResource, DesiredState, LiveState } from '../core/resource.js';
import type { RedactionSet } from '../core/redaction.js';
import { collectSecretTexts, scrub } from '../core/secret.js';
import { diffResources } from '../diff/diff.js';
import type { ClientPool, KindModule, PlanFlags, ReadAhead } from '../kinds/kind.js';
import { orderChanges, selectTargets } from '../order/order.js';
import type { Prepared } from '../validate/types.js';
import { missingNamespaces } from './namespaces.js';
import { withEscalations } from './escalation.js';
import { missingPolicies } from './policies.js';
import { UnservedFeatures, type KindInUse } from './unserved.js';
import { ReadAheadWork } from './read-ahead.js';

/**
 * The engine: from prepared manifests and the live servers to a plan, with every problem met on
 * the way as a diagnostic (a value, as Terraform's tfdiags), never a thrown string: namespaces
 * that do not exist (located at the document), documents whose server lacks their kind
 * (located), reads that failed and refusals (about the object they concern). The commands render
 * the plan and the diagnostics in the format asked for, and decide the exit status from them.
 *
 * read live state (I/O) → diff → order → targets (pure).
 */

interface DesiredEntry {
  resource: DesiredResource;
  kind: KindModule;
}

export interface PlanRun {
  /** What the manifests ask for, as far as it could be worked out; never to be applied while `diagnostics` has errors. */
  plan: Plan;
  /** Every problem met while planning. An error means the plan must not be saved or applied. */
  diagnostics: Diagnostics;
  /** Every live object read while planning (fingerprinted for saved plans). */
  observed: Record<string, JsonValue | null>;
  /** Desired objects by address: what apply writes (write-only values included). */
  desired: AddressMap<DesiredEntry>;
  /** The run's redaction set: the plan's values already passed through it. */
  redaction: RedactionSet;
}

export interface PlanOptions {
  flags: PlanFlags;
  targets: Address[];
  /** The run's redaction set (Output.redaction). */
  redaction: RedactionSet;
  /** `--strict-policies`: a policy the manifests name that will not exist is an error, not a warning. */
  strictPolicies?: boolean;
  /** Whether the access review reads the directories; `auto` when absent. */
  accessReview?: AccessReviewMode;
}

export async function computePlan(prepared: Prepared, pool: ClientPool, opts: PlanOptions): Promise<PlanRun> {
  // A review's own reads may start while the plan is read, once a kind's read shows the review
  // will need them: not when no review runs, nor with --target, which may leave out the change
  // that would have called for it. What the plan ends without taking is abandoned.
  const readAhead = (opts.accessReview ?? 'auto') !== 'off' && opts.targets.length === 0 ? new ReadAheadWork() : undefined;
  try {
    return await planWith(prepared, pool, opts, readAhead);
  } finally {
    readAhead?.abandonUntaken();
  }
}

async function planWith(prepared: Prepared, pool: ClientPool, opts: PlanOptions, readAhead: ReadAhead | undefined): Promise<PlanRun> {
  const diagnostics = new Diagnostics();
  const redaction = opts.redaction.addAll(secretTextsOf(prepared));
  const empty = (): PlanRun => ({ plan: { formatVersion: PLAN_FORMAT_VERSION, changes: [], unmanaged: [], notes: [] }, diagnostics, observed: {}, desired: new AddressMap(), redaction });
  for (const problem of unknownTargetClusters(opts.targets, prepared)) diagnostics.error(problem);
  diagnostics.append(await missingNamespaces(prepared, pool));
  if (diagnostics.hasErrors()) return empty();

  // Kinds whose feature a cluster does not serve leave that cluster's objects out, each of their
  // documents a located error; everything else still plans.
  const unserved = new UnservedFeatures(prepared, pool);
  const probed = await unserved.probe(kindsOf(prepared));
  let readFailed = false;
  const reads = await Promise.all(
    probed.map(({ kind, state }) =>
      unserved.readServed(kind, state, { readAhead }).catch((err: unknown) => {
        readFailed = true;
        diagnostics.add({ severity: 'error', origin: originOfFailure(err), message: `reading live state failed: ${describeError(err, redaction)}` });
        return undefined;
      }),
    ),
  );
  diagnostics.append(unserved.diags);
  // A kind that could not be read would plan its objects as missing: no plan rather than a wrong one.
  if (readFailed) return empty();
  const kindsInUse: Array<{ kind: KindModule; state: DesiredState; live: LiveState }> = [];
  probed.forEach(({ kind }, i) => {
    const read = reads[i];
    if (read) kindsInUse.push({ kind, state: kind.settle ? kind.settle(read.state, read.live) : read.state, live: read.live });
  });
  const desired = new AddressMap<DesiredEntry>();
  for (const { kind, state } of kindsInUse) {
    for (const r of state.resources) desired.set(r.address, { resource: r, kind });
  }

  let changes: Change[] = [];
  const unmanaged: Unmanaged[] = [];
  const notes: PlanNote[] = [];
  // One kind read (the common run) lends its record as it is: tens of thousands of keys are not copied into another.
  const observed: Record<string, JsonValue | null> = kindsInUse.length === 1 ? kindsInUse[0]!.live.observed : {};
  const refusals: Refusal[] = [];
  for (const { kind, state, live } of kindsInUse) {
    kind.reviewAgainstLive?.(prepared.documents.get(kind.kind) ?? [], state, live, diagnostics);
    const planned = kind.plan
      ? kind.plan(state, live, opts.flags)
      : { ...diffResources(state, live, { syncSecrets: opts.flags.syncSecrets }), notes: [], errors: [] };
    changes.push(...planned.changes);
    unmanaged.push(...planned.unmanaged);
    notes.push(...live.notes, ...planned.notes);
    refusals.push(...planned.errors);
    if (observed !== live.observed) Object.assign(observed, live.observed);
  }
  for (const problem of unmatchedTargets(opts.targets, () => [...desired.keys(), ...kindsInUse.flatMap(({ live }) => live.resources.map((r) => r.address)), ...changes.map((c) => c.address)])) {
    diagnostics.error(problem);
  }
  changes = selectTargets(orderChanges(changes), opts.targets);
  for (const r of refusals) if (concernsSelection(r.address, changes, opts.targets)) diagnostics.errorAbout(r.address, r.message);
  notes.push(...writeOnlyNotes(desired, changes));
  diagnostics.append(await missingPolicies({ prepared, pool, observed, changes, strict: opts.strictPolicies === true, redaction }));
  const reviewed = await reviewAccess(kindsInUse, { observed, changes, readAhead }, opts.accessReview ?? 'auto', diagnostics, redaction);
  const accessChanges = reviewed && calledOutFirst(await withEscalations(reviewed, { changes, observed, desired: prepared.desired.values(), pool, diagnostics, redaction }));

  return {
    // The plan is data that is printed and saved: it holds no secret, in whatever field a
    // manifest put one (the desired state, which apply sends, keeps the values).
    plan: redaction.redactValue({
      formatVersion: PLAN_FORMAT_VERSION,
      changes,
      unmanaged: unmanaged.sort((a, b) => Address.compare(a.address, b.address)),
      notes,
      ...(accessChanges ? { accessChanges } : {}),
    }),
    diagnostics,
    observed,
    desired,
    redaction,
  };
}

/**
 * The access review of the plan's changes (kinds with reviewAccess: who gains or loses which
 * policy at login); undefined when no method was reviewed. A method whose directory cannot be
 * read is one warning saying why (an error with `require`); the plan stands either way.
 */
async function reviewAccess(
  kinds: ReadonlyArray<{ kind: KindModule; state: DesiredState }>,
  planned: { observed: Record<string, JsonValue | null>; changes: readonly Change[]; readAhead: ReadAhead | undefined },
  mode: AccessReviewMode,
  diagnostics: Diagnostics,
  redaction: RedactionSet,
): Promise<AccessChange[] | undefined> {
  if (mode === 'off' || planned.changes.length === 0) return undefined;
  let reviewed = 0;
  const accessChanges: AccessChange[] = [];
  for (const { kind, state } of kinds) {
    if (!kind.reviewAccess) continue;
    const types = new Set(kind.resourceTypes);
    const result = await kind.reviewAccess({ desired: state, observed: planned.observed, changes: planned.changes.filter((c) => types.has(c.resourceType)), readAhead: planned.readAhead });
    reviewed += result.reviewed.length;
    accessChanges.push(...result.accessChanges);
    for (const { method, reason } of result.skipped) {
      const why = scrub(reason, redaction);
      // What stops a review is around the run (a directory out of reach, a bind refused, no bind password here).
      if (mode === 'require') diagnostics.errorAbout(method, `access review failed (--access-review require): ${why}`, 'environment');
      else diagnostics.warningAbout(method, `access review skipped: ${why}`, 'environment');
    }
  }
  return reviewed > 0 ? accessChanges : undefined;
}

/** The kinds the manifests use, with their desired states. */
export function kindsOf(prepared: Prepared): KindInUse[] {
  return prepared.kinds.flatMap((kind) => {
    const state = prepared.desired.get(kind.kind);
    return state ? [{ kind, state }] : [];
  });
}

/**
 * Every secret text the manifests brought in: cluster tokens, every value read into a secret
 * field of any document (key shares and operation tokens included), and the desired state's
 * write-only values as normalised. A value that is a secret anywhere is redacted everywhere
 * (contract section 5), so `binddn: ${env:SERVICE_TOKEN}` prints as "(sensitive)" too.
 */
export function secretTextsOf(prepared: Prepared): ReadonlySet<string> {
  let texts = secretTextsCache.get(prepared);
  if (texts === undefined) {
    // The documents' secrets were gathered as their references were resolved: no walk of every
    // document here (at 10,000 users two such walks were 60 ms).
    texts = collectSecretTexts([...prepared.clusters.values()].map((c) => c.auth), new Set(prepared.secretTexts));
    for (const state of prepared.desired.values()) for (const r of state.resources) collectSecretTexts(r.writeOnly, texts);
    secretTextsCache.set(prepared, texts);
  }
  return texts;
}

// The commands (before printing anything) and computePlan both ask; a Prepared is never changed once made.
const secretTextsCache = new WeakMap<Prepared, Set<string>>();

/** A refusal stands unless --target leaves its object out (it is then not part of what runs). */
function concernsSelection(address: Address, selected: readonly Change[], targets: readonly Address[]): boolean {
  if (targets.length === 0) return true;
  return (
    targets.some((t) => address.isWithin(t) || t.isWithin(address)) ||
    selected.some((c) => c.address.isWithin(address) || (c.owner !== undefined && c.owner.equals(address)))
  );
}

/**
 * A --target that names no object this run knows (declared, read from a server, or a change's
 * step) would select nothing and report success: each is an error, with the nearest address.
 */
function unmatchedTargets(targets: readonly Address[], known: () => readonly Address[]): string[] {
  if (targets.length === 0) return [];
  const addresses = known();
  return targets
    .filter((t) => !addresses.some((a) => a.isWithin(t)))
    .map((t) => `--target ${t}: matches no object of the manifests or the servers${didYouMean(t.toString(), sameDepth(addresses, t))}`);
}

/** The known addresses cut to the target's depth: a target may name a collection or a mount, not only an object. */
function sameDepth(known: readonly Address[], target: Address): Set<string> {
  const depth = target.segments.length;
  return new Set(known.filter((a) => a.segments.length >= depth).map((a) => new Address(a.cluster, a.segments.slice(0, depth)).toString()));
}

/** A --target on a cluster the manifests do not know would silently select nothing. */
function unknownTargetClusters(targets: readonly Address[], prepared: Prepared): string[] {
  const known = [...prepared.clusters.keys()].sort().join(', ') || '(none)';
  return targets.filter((t) => !prepared.clusters.has(t.cluster)).map((t) => `--target ${t}: no cluster named "${t.cluster}"; known clusters: ${known}`);
}

/**
 * Objects that match but hold write-only fields the server never returns: one note for the run
 * (not one per object: a clean plan would repeat it for every config) saying how many were not
 * compared, and one saying how many go empty (cleared) with their object's next write.
 */
function writeOnlyNotes(desired: AddressMap<DesiredEntry>, changes: Change[]): PlanNote[] {
  const notCompared = new FieldTally();
  const cleared = new FieldTally();
  let changing: Set<string> | undefined;
  // In no order: the tallies and the sorted field names do not depend on it (entries() would sort every address).
  for (const [address, { resource, kind }] of desired.unordered()) {
    // Most objects (users, groups) have no write-only field: nothing to tally, nothing to look up.
    if (isEmpty(resource.writeOnly)) continue;
    const fields = Object.keys(resource.writeOnly);
    // Kinds with their own planner (DR) send their secrets as step parameters, not object fields.
    changing ??= new Set(changes.map((c) => c.address.toString()));
    if (kind.plan || changing.has(address.toString())) continue;
    fields.sort();
    notCompared.add(fields.filter((f) => resource.writeOnly[f] !== ''));
    cleared.add(fields.filter((f) => resource.writeOnly[f] === ''));
  }
  const notes: PlanNote[] = [];
  if (notCompared.objects > 0) {
    notes.push({ severity: 'info', message: `write-only fields not compared (the server never returns them): ${notCompared.describe()}; apply --sync-secrets re-sends them` });
  }
  if (cleared.objects > 0) {
    notes.push({
      severity: 'info',
      message: `write-only fields no manifest sets, sent empty (cleared) whenever their object is written: ${cleared.describe()}; apply --sync-secrets clears them now, managedElsewhere leaves them alone`,
    });
  }
  return notes;
}

/** No key at all, without an array of them. */
function isEmpty(record: object): boolean {
  for (const _ in record) return false;
  return true;
}

/** How many objects hold some of a set of fields, and which fields: `2 objects (bindpass, client_tls_key)`. */
class FieldTally {
  objects = 0;
  readonly #fields = new Set<string>();

  add(fields: readonly string[]): void {
    if (fields.length === 0) return;
    this.objects++;
    for (const f of fields) this.#fields.add(f);
  }

  describe(): string {
    return `${this.objects} object${this.objects === 1 ? '' : 's'} (${[...this.#fields].sort().join(', ')})`;
  }
}

/** One line, no stack, no secret. */
/**
 * What a failed read says about: a server that cannot be reached or refuses the token is the
 * run's environment (its address, network, credentials); any other answer is the server's.
 */
function originOfFailure(err: unknown): DiagnosticOrigin {
  if (isTransportError(err)) return 'environment';
  if (isApiError(err) && (err.status === 401 || err.status === 403)) return 'environment';
  return 'server';
}

export function describeError(err: unknown, secrets: Iterable<string> | RedactionSet): string {
  const message = err instanceof Error ? err.message : String(err);
  return scrub(message, secrets);
}
