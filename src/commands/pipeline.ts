import { Address, AddressMap } from '../core/address.js';
import type { Diagnostics } from '../core/diagnostics.js';
import type { JsonValue } from '../core/json.js';
import { PLAN_FORMAT_VERSION, type Change, type Plan, type PlanNote, type Refusal, type Unmanaged } from '../core/plan.js';
import type { DesiredResource, DesiredState, LiveState } from '../core/resource.js';
import type { RedactionSet } from '../core/redaction.js';
import { collectSecretTexts, scrub } from '../core/secret.js';
import { diffResources } from '../diff/diff.js';
import type { KindModule, PlanFlags } from '../kinds/kind.js';
import { orderChanges, selectTargets } from '../order/order.js';
import { prepare, type Prepared } from '../validate/prepare.js';
import type { ClusterClientPool } from './clients.js';
import { missingNamespaces } from './namespaces.js';
import { UnservedFeatures, type KindInUse } from './features.js';
import { CliError } from './errors.js';
import type { Output } from './output.js';

export interface ManifestOptions {
  allowPlaintextSecrets: boolean;
  allowFilesOutsideRoot: boolean;
  prune: boolean;
  /** validate needs no server; every other command does. */
  requireClusters: boolean;
}

/** load → validate → normalise. Prints every diagnostic; refuses (exit 1) on any error. */
export async function prepareOrFail(paths: string[], opts: ManifestOptions, output: Output): Promise<Prepared> {
  if (paths.length === 0) throw new CliError('no manifest paths given');
  const prepared = await prepare(paths, { ...opts, env: process.env });
  // Before anything is printed: every secret of the run, whatever field it was read into.
  output.redaction.addAll(secretTextsOf(prepared));
  printDiagnostics(prepared.diags, output);
  if (prepared.diags.hasErrors()) {
    const n = prepared.diags.errors.length;
    throw new CliError(`${n} error${n === 1 ? '' : 's'} in the manifests; nothing was sent to any server`);
  }
  return prepared;
}

/**
 * Every secret text the manifests brought in: cluster tokens, every value read into a secret
 * field of any document (key shares and operation tokens included), and the desired state's
 * write-only values as normalised. A value that is a secret anywhere is redacted everywhere
 * (contract section 5), so `binddn: ${env:SERVICE_TOKEN}` prints as "(sensitive)" too.
 */
function secretTextsOf(prepared: Prepared): ReadonlySet<string> {
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

// prepareOrFail and computePlan both ask; a Prepared is never changed once made.
const secretTextsCache = new WeakMap<Prepared, Set<string>>();

function printDiagnostics(diags: Diagnostics, output: Output): void {
  for (const line of diags.format()) output.err(line);
}

interface DesiredEntry {
  resource: DesiredResource;
  kind: KindModule;
}

export interface PlanRun {
  plan: Plan;
  /** Every live object read while planning (fingerprinted for saved plans). */
  observed: Record<string, JsonValue | null>;
  /** Desired objects by address: what apply writes (write-only values included). */
  desired: AddressMap<DesiredEntry>;
  /** The run's redaction set: the plan's values already passed through it. */
  redaction: RedactionSet;
  /**
   * Documents whose cluster does not serve their kind, one located error each (commands/
   * features.ts): the plan leaves them out, and the run must fail.
   */
  unserved: Diagnostics;
}

export interface PlanOptions {
  flags: PlanFlags;
  targets: Address[];
  /** The run's redaction set (Output.redaction). */
  redaction: RedactionSet;
}

/** read live state (I/O) → diff → order → targets (pure). */
export async function computePlan(prepared: Prepared, pool: ClusterClientPool, opts: PlanOptions): Promise<PlanRun> {
  checkTargetClusters(opts.targets, prepared);
  // The same set prepareOrFail filled; adding again is free and keeps this stage whole on its own.
  const redaction = opts.redaction.addAll(secretTextsOf(prepared));
  const missing = await missingNamespaces(prepared, pool);
  if (missing.hasErrors()) throw new CliError(['the plan is refused:', ...missing.format().map((line) => `  ${line}`)]);

  // Kinds whose feature a cluster does not serve leave that cluster's objects out, each of their
  // documents a located error; everything else still plans.
  const unserved = new UnservedFeatures(prepared, pool);
  const probed = await unserved.probe(kindsOf(prepared));
  const reads = await Promise.all(
    probed.map(({ kind, state }) =>
      unserved.readServed(kind, state).catch((err: unknown) => {
        throw new CliError(`reading live state failed: ${describeError(err, redaction)}`);
      }),
    ),
  );
  const kindsInUse: Array<{ kind: KindModule; state: DesiredState; live: LiveState }> = [];
  probed.forEach(({ kind }, i) => {
    const read = reads[i];
    if (read) kindsInUse.push({ kind, ...read });
  });
  const desired = new AddressMap<DesiredEntry>();
  for (const { kind, state } of kindsInUse) {
    for (const r of state.resources) desired.set(r.address, { resource: r, kind });
  }

  let changes: Change[] = [];
  const unmanaged: Unmanaged[] = [];
  const notes: PlanNote[] = [];
  const observed: Record<string, JsonValue | null> = {};
  const refusals: Refusal[] = [];
  for (const { kind, state, live } of kindsInUse) {
    const planned = kind.plan
      ? kind.plan(state, live, opts.flags)
      : { ...diffResources(state, live, { syncSecrets: opts.flags.syncSecrets }), notes: [], errors: [] };
    changes.push(...planned.changes);
    unmanaged.push(...planned.unmanaged);
    notes.push(...live.notes, ...planned.notes);
    refusals.push(...planned.errors);
    Object.assign(observed, live.observed);
  }
  changes = selectTargets(orderChanges(changes), opts.targets);
  const blocking = refusals.filter((r) => concernsSelection(r.address, changes, opts.targets));
  if (blocking.length > 0) throw new CliError(['the plan is refused:', ...blocking.map((r) => `  ${r.message}`)]);
  notes.push(...writeOnlyNotes(desired, changes));

  return {
    // The plan is data that is printed and saved: it holds no secret, in whatever field a
    // manifest put one (the desired state, which apply sends, keeps the values).
    plan: redaction.redactValue({
      formatVersion: PLAN_FORMAT_VERSION,
      changes,
      unmanaged: unmanaged.sort((a, b) => Address.compare(a.address, b.address)),
      notes,
    }),
    observed,
    desired,
    redaction,
    unserved: unserved.diags,
  };
}

/** The kinds the manifests use, with their desired states. */
export function kindsOf(prepared: Prepared): KindInUse[] {
  return prepared.kinds.flatMap((kind) => {
    const state = prepared.desired.get(kind.kind);
    return state ? [{ kind, state }] : [];
  });
}

/**
 * Fails the run (exit 1) when documents ask for what their servers do not serve: their located
 * errors first (stderr), then one line saying what became of the run (`outcome`).
 */
export function refuseUnserved(run: Pick<PlanRun, 'unserved'>, output: Output, outcome: string): void {
  if (!run.unserved.hasErrors()) return;
  printDiagnostics(run.unserved, output);
  const n = run.unserved.errors.length;
  const them = n === 1 ? 'it' : 'them';
  throw new CliError(`${n} document${n === 1 ? ' needs' : 's need'} what ${n === 1 ? 'its server does' : 'their servers do'} not serve: ${outcome.replaceAll('{them}', them)}`);
}

/** A refusal stands unless --target leaves its object out (it is then not part of what runs). */
function concernsSelection(address: Address, selected: readonly Change[], targets: readonly Address[]): boolean {
  if (targets.length === 0) return true;
  return (
    targets.some((t) => address.isWithin(t) || t.isWithin(address)) ||
    selected.some((c) => c.address.isWithin(address) || (c.owner !== undefined && c.owner.equals(address)))
  );
}

/** A --target on a cluster the manifests do not know would silently select nothing. */
function checkTargetClusters(targets: readonly Address[], prepared: Prepared): void {
  for (const target of targets) {
    if (prepared.clusters.has(target.cluster)) continue;
    const known = [...prepared.clusters.keys()].sort().join(', ') || '(none)';
    throw new CliError(`--target ${target}: no cluster named "${target.cluster}"; known clusters: ${known}`);
  }
}

/**
 * Objects that match but hold write-only fields the server never returns: one note for the run
 * (not one per object: a clean plan would repeat it for every config) saying how many were not
 * compared, and one saying how many go empty (cleared) with their object's next write.
 */
function writeOnlyNotes(desired: AddressMap<DesiredEntry>, changes: Change[]): PlanNote[] {
  const changing = new Set(changes.map((c) => c.address.toString()));
  const notCompared = new FieldTally();
  const cleared = new FieldTally();
  for (const [address, { resource, kind }] of desired.entries()) {
    // Kinds with their own planner (DR) send their secrets as step parameters, not object fields.
    if (kind.plan || changing.has(address.toString())) continue;
    const fields = Object.keys(resource.writeOnly).sort();
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
export function describeError(err: unknown, secrets: Iterable<string> | RedactionSet): string {
  const message = err instanceof Error ? err.message : String(err);
  return scrub(message, secrets);
}

export function parseTargets(values: string[] | undefined): Address[] {
  return (values ?? []).map((v) => {
    const a = Address.parse(v);
    if (!a) throw new CliError(`--target ${JSON.stringify(v)} is not an address (cluster:path, e.g. east:auth/ldap/users/alice)`);
    return a;
  });
}
