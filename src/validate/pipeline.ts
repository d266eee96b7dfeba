import type { ErrorObject } from 'ajv';
import { Diagnostics, type SourcePos } from '../core/diagnostics.js';
import type { DesiredState } from '../core/resource.js';
import type { LoadedDocument, ResolvedDocument, ValuePath } from '../load/document.js';
import { loadPaths } from '../load/loader.js';
import { resolveReferencesPartly, type ReferenceOptions, type TextsHolding } from '../load/references.js';
import {
  checkClusterValues,
  checkProxies,
  CLUSTER_KIND,
  CLUSTER_SCHEMA_FILE,
  clusterFromEnvironment,
  environmentSecretTexts,
  clusterSecretPaths,
  clustersFromDocuments,
  placeDocument,
  type ClusterCatalogue,
  type KnownCluster,
} from '../kinds/cluster/index.js';
import type { KindContext } from '../kinds/kind.js';
import { checkCertificates } from './certificates.js';
import { CERTIFICATE_BEGIN } from '../core/pem.js';
import { SHA1_CERTIFICATE_RULE } from '../core/acknowledge-rules.js';
import { checkEnvelope, isLockstepDocument, noManifestFound } from './envelope.js';
import { pointerToPath, schemaDiagnostics } from './schema-errors.js';
import { schemaAcknowledges, schemaValidator } from './schemas.js';
import { refusedBySchema, withoutRefused, type SalvagedValue } from './salvage.js';
import type { KindSource, PreparableKind, Prepared, PrepareOptions } from './types.js';

/**
 * prepare() with the kinds given (tests pass their own). Stages, each over every document so
 * that all problems are reported at once: envelope (apiVersion, kind) → schema and references
 * (both, whatever the other finds) → clusters and placement → the kinds' semantic rules →
 * the certificates of every document → desired state (only without errors). A document that
 * fails its schema or a reference goes on without the values refused, to placement and to the
 * rules about single values (KindModule.checkValues); one that cannot be placed goes to those rules too.
 * Nothing here talks to a server.
 */
export async function prepareWithKinds<K extends PreparableKind>(
  paths: string[],
  opts: PrepareOptions,
  kinds: readonly K[] | KindSource<K>,
): Promise<Prepared<K>> {
  const diags = new Diagnostics();
  const now = opts.now ?? new Date();
  // The environment's own secrets first: a manifest can read them into any field (from-environment.ts).
  const secretTexts = new Set<string>(environmentSecretTexts(opts.env));
  const referenceOpts = { ...opts, secretTexts };
  const loaded = await loadPaths(paths, diags);
  const nothingFound = noManifestFound(paths, loaded, diags);
  if (nothingFound !== undefined) diags.error(nothingFound);
  // Foreign YAML alone is not a manifest set with errors, it is no manifest set: said once above.
  if (!loaded.some(isLockstepDocument)) return { kinds: [], diags, clusters: new Map(), documents: new Map(), documentCount: 0, desired: new Map(), secretTexts, now };
  const source: KindSource<K> = 'load' in kinds ? kinds : fixedKinds(kinds);
  const knownKinds = [CLUSTER_KIND, ...source.names];

  const byKind = new Map<string, LoadedDocument[]>();
  for (const doc of loaded) {
    const kind = checkEnvelope(doc, knownKinds, diags);
    if (kind !== undefined) byKind.set(kind, [...(byKind.get(kind) ?? []), doc]);
  }
  const kindModules = await source.load(new Set(byKind.keys()));
  const moduleOf = new Map(kindModules.map((k) => [k.kind, k]));

  const resolved = new Map<string, ResolvedDocument[]>();
  // Documents that failed their schema or a reference, what is left of them: their single values still checked.
  const salvaged = new Map<string, Salvaged[]>();
  // Found while references are resolved (the one walk of every value): checked once placed.
  const certificateTexts = new Map<LoadedDocument, FoundTexts>();
  const brokenClusters: KnownCluster[] = [];
  for (const [kind, docs] of byKind) {
    const module = moduleOf.get(kind);
    const schemaFile = module ? module.schemaFile : CLUSTER_SCHEMA_FILE;
    const secretPaths = module ? module.secretPaths.bind(module) : clusterSecretPaths;
    const ok: ResolvedDocument[] = [];
    const rest: Salvaged[] = [];
    for (const doc of docs) {
      const certificates: FoundTexts = [];
      const checked = await schemaAndReferences(doc, schemaFile, secretPaths, { ...referenceOpts, textsHolding: { needle: CERTIFICATE_BEGIN, found: certificates } }, diags);
      if (checked.complete) ok.push({ source: doc, kind, data: checked.data });
      else if (checked.salvaged) rest.push({ doc: { source: doc, kind, data: checked.salvaged.data }, refusedFields: checked.salvaged.refusedFields });
      if (!checked.complete && kind === CLUSTER_KIND) brokenClusters.push(...brokenClusterName(doc));
      const kept = checked.complete ? certificates : checked.salvaged ? certificates.filter((c) => valueAt(checked.salvaged!.data, c.path) === c.text) : [];
      if (kept.length > 0) certificateTexts.set(doc, kept);
    }
    resolved.set(kind, ok);
    if (rest.length > 0) salvaged.set(kind, rest);
  }

  const clusterDocs = resolved.get(CLUSTER_KIND) ?? [];
  // What is left of a broken Cluster document: its own values checked, as any kind's are (below).
  const salvagedClusters = (salvaged.get(CLUSTER_KIND) ?? []).map((s) => s.doc);
  for (const doc of salvagedClusters) checkClusterValues(doc, diags);
  const catalogue: ClusterCatalogue = byKind.has(CLUSTER_KIND)
    ? clustersFromDocuments(clusterDocs, brokenClusters, diags)
    : await clusterFromEnvironment({ env: opts.env, requireClusters: opts.requireClusters }, diags);

  if (opts.requireClusters) checkProxies(catalogue.targets, opts.env, diags);

  const documents = new Map<string, ResolvedDocument[]>();
  if (clusterDocs.length > 0) documents.set(CLUSTER_KIND, clusterDocs);
  // Whole documents that cannot be placed: their single values are still checked (below).
  const unplaced = new Map<string, ResolvedDocument[]>();
  for (const module of kindModules) {
    const docs = resolved.get(module.kind) ?? [];
    if (module.placement === 'none') {
      documents.set(module.kind, docs);
      continue;
    }
    const placed: ResolvedDocument[] = [];
    const left: ResolvedDocument[] = [];
    for (const doc of docs) {
      const at = placeDocument(doc, catalogue, diags);
      if (at) placed.push(at);
      else left.push(doc);
    }
    documents.set(module.kind, placed);
    if (left.length > 0) unplaced.set(module.kind, left);
  }

  const ctx: KindContext = { clusters: catalogue.targets, prune: opts.prune };
  for (const module of kindModules) {
    const docs = documents.get(module.kind) ?? [];
    if (docs.length > 0) module.validate(docs, diags, ctx);
  }
  // A document that could not be placed, and the rest of one that failed its schema or a
  // reference (placed when its cluster and namespace were not refused): its single values
  // checked (every problem at once; no rule between fields or documents runs on it, see
  // validate/salvage.ts).
  const salvagedPlaced: ResolvedDocument[] = [];
  for (const module of kindModules) {
    for (const doc of unplaced.get(module.kind) ?? []) module.checkValues?.(doc, diags);
    for (const { doc, refusedFields } of salvaged.get(module.kind) ?? []) {
      const placeable = module.placement !== 'none' && !refusedFields.has('cluster') && !refusedFields.has('namespace');
      const placed = placeable ? placeDocument(doc, catalogue, diags) : undefined;
      if (placed) salvagedPlaced.push(placed);
      module.checkValues?.(placed ?? doc, diags);
    }
  }
  const schemaFileOf = (kind: string) => moduleOf.get(kind)?.schemaFile ?? CLUSTER_SCHEMA_FILE;
  const certificates = [...[...documents.values()].flat(), ...salvagedPlaced, ...salvagedClusters].flatMap((doc) => (certificateTexts.get(doc.source) ?? []).map((found) => ({ doc, ...found })));
  await checkCertificates(certificates, now, (kind) => schemaAcknowledges(schemaFileOf(kind), SHA1_CERTIFICATE_RULE), diags);

  const desired = new Map<string, DesiredState>();
  if (!diags.hasErrors()) {
    for (const module of kindModules) desired.set(module.kind, module.desired(documents.get(module.kind) ?? [], ctx));
  }
  return { kinds: kindModules, diags, clusters: catalogue.targets, documents, documentCount: loaded.length, desired, secretTexts, now };
}

/** The plain texts of one document that hold a certificate, with their paths. */
type FoundTexts = TextsHolding['found'];

/** What is left of a document that failed its schema or a reference (validate/salvage.ts). */
interface Salvaged {
  doc: ResolvedDocument;
  refusedFields: ReadonlySet<string>;
}

/** The value at `path`, or undefined where the path leaves the value. */
function valueAt(root: unknown, path: ValuePath): unknown {
  let at = root;
  for (const step of path) {
    if (at === null || typeof at !== 'object' || !Object.hasOwn(at, step)) return undefined;
    at = (at as Record<string | number, unknown>)[step];
  }
  return at;
}

/** A KindSource over modules already at hand (tests pass their own). */
function fixedKinds<K extends PreparableKind>(modules: readonly K[]): KindSource<K> {
  return { names: modules.map((k) => k.kind), load: async (names) => modules.filter((k) => names.has(k.kind)) };
}

/**
 * The document's values with references resolved, `complete` when its schema and every reference
 * passed. Both are checked whatever the other finds, so one run reports every problem of the
 * document; a value that is both a bad reference and of the wrong form is one problem, reported
 * as the reference (the more precise message), once; an unknown field's value is not resolved.
 * When something failed, `salvaged` is the rest without the refused values (validate/salvage.ts),
 * or undefined when nothing can be read of it.
 */
async function schemaAndReferences(
  doc: LoadedDocument,
  schemaFile: string,
  secretPaths: (value: unknown) => ValuePath[],
  opts: PrepareOptions & ReferenceOptions,
  diags: Diagnostics,
): Promise<{ complete: true; data: Record<string, unknown> } | { complete: false; salvaged: SalvagedValue | undefined }> {
  const validate = schemaValidator(schemaFile);
  const schemaOk = validate(doc.value);
  const errors = validate.errors ?? [];
  const loaderRefused = doc.refused ?? [];
  // A value the loader refused (a tag outside the core schema) was reported there: its form is not said again.
  const schemaProblems = schemaOk ? [] : schemaDiagnostics(loaderRefused.length === 0 ? errors : errors.filter((e) => !within(pointerToPath(e.instancePath), loaderRefused)), doc);
  const referenceDiags = new Diagnostics();
  const resolved = await resolveReferencesPartly(doc, secretPaths(doc.value), opts, referenceDiags, unknownFieldPaths(errors));
  const referenceSpots = new Set(referenceDiags.items.map((d) => spotOf(d.pos)));
  for (const d of schemaProblems) if (!referenceSpots.has(spotOf(d.pos))) diags.add(d);
  diags.append(referenceDiags);
  if (schemaOk && resolved.refused.length === 0 && loaderRefused.length === 0) return { complete: true, data: resolved.value as Record<string, unknown> };
  return { complete: false, salvaged: withoutRefused(resolved.value, [...refusedBySchema(errors), ...resolved.refused, ...loaderRefused]) };
}

/** Whether `path` is one of `paths` or lies below one. */
function within(path: ValuePath, paths: readonly ValuePath[]): boolean {
  return paths.some((p) => p.length <= path.length && p.every((step, i) => String(step) === String(path[i])));
}

/** The value paths of fields the schema does not know. */
function unknownFieldPaths(errors: readonly ErrorObject[]): ValuePath[] {
  return errors
    .filter((e) => e.keyword === 'additionalProperties')
    .map((e) => [...pointerToPath(e.instancePath), String((e.params as { additionalProperty: unknown }).additionalProperty)]);
}

function spotOf(pos: SourcePos | undefined): string {
  return pos ? `${pos.file}:${pos.line}:${pos.column}` : '';
}

/** The name of a Cluster document that failed early, so documents naming it are not also flagged. */
function brokenClusterName(doc: LoadedDocument): KnownCluster[] {
  const name = (doc.value as { name?: unknown }).name;
  return typeof name === 'string' ? [{ name, defaultNamespace: '', declaredAt: () => doc.pos([]) }] : [];
}
