import { access, readFile } from 'node:fs/promises';
import { replaceFile } from '../core/replace-file.js';
import path from 'node:path';
import { Address } from '../core/address.js';
import { Diagnostics } from '../core/diagnostics.js';
import type { JsonObject } from '../core/json.js';
import { PLAN_FORMAT_VERSION, type Change, type Plan } from '../core/plan.js';
import type { RedactionSet } from '../core/redaction.js';
import { savedPlanProblems } from './shape.js';

/**
 * A saved plan (`plan --out`). It holds no secret: changes are already redacted, and the
 * write-only values are taken again from the manifests when it is applied. It records what
 * apply must re-check: the manifests' digest and the fingerprint of every live object read.
 */
export interface SavedPlan {
  formatVersion: typeof PLAN_FORMAT_VERSION;
  kind: 'lockstep-plan';
  createdAt: string;
  /** Absolute manifest paths, as given to `plan`. */
  manifestPaths: string[];
  /**
   * The same paths relative to the directory `plan` ran in, for a checkout at another place
   * (a CI job on another runner). Absent in plans saved by earlier builds.
   */
  manifestPathsRelative?: string[];
  /** sha256 over the loaded documents (references unresolved, so no secret enters it). */
  manifestDigest: string;
  /**
   * Cluster name → the base URL the plan read it at: a plan applied to other servers (another
   * SERVICE_ADDR) is refused saying so. Absent in plans saved by earlier builds (their digest
   * holds the addresses: such a plan is refused as stale instead).
   */
  clusterAddresses?: Record<string, string>;
  options: { prune: boolean; targets: string[]; syncSecrets: boolean; allowUnreachablePrimary: boolean; force: boolean; allowPartial?: boolean };
  /** Address string → fingerprint (or `absent`) of every object read while planning. */
  fingerprints: Record<string, string>;
  plan: Plan;
  /**
   * What the plan warned of (a policy that does not exist, at its manifest line), so that
   * `show` prints the plan as `plan` did. Absent in plans saved by earlier builds.
   */
  warnings?: SavedWarning[];
}

/** One warning of a saved plan: its manifest position or its subject, when it has one. */
export interface SavedWarning {
  message: string;
  subject?: string;
  file?: string;
  line?: number;
  column?: number;
}

/** The warnings of a run, as a saved plan keeps them. */
export function savedWarnings(diagnostics: Diagnostics): SavedWarning[] {
  return diagnostics.warnings.map((d) => ({
    message: d.message,
    ...(d.subject !== undefined ? { subject: d.subject } : {}),
    ...(d.pos ? { file: d.pos.file, line: d.pos.line, column: d.pos.column } : {}),
  }));
}

/** A saved plan's warnings as diagnostics again. */
export function warningsOf(saved: Pick<SavedPlan, 'warnings'>): Diagnostics {
  const diagnostics = new Diagnostics();
  for (const w of saved.warnings ?? []) {
    const pos = w.file !== undefined && w.line !== undefined && w.column !== undefined ? { file: w.file, line: w.line, column: w.column } : undefined;
    // Saved warnings are the manifests' (located, or about an object the manifests name).
    diagnostics.add({ severity: 'warning', origin: 'manifest', message: w.message, ...(pos ? { pos } : {}), ...(w.subject !== undefined ? { subject: w.subject } : {}) });
  }
  return diagnostics;
}

/**
 * Writes `saved` to `file`, unless its text would reveal a secret of `redaction` in any form:
 * its values are redacted already, but a secret can also be what a plan must keep as it is (the
 * name of an object, in its address, when a manifest names a group after its bindpass). Such a
 * plan is not written (throws, saying why without the secret), and nothing is left behind.
 */
export async function writeSavedPlan(file: string, saved: SavedPlan, redaction?: Pick<RedactionSet, 'revealedIn'>): Promise<void> {
  if (redaction?.revealedIn(saved)) {
    throw new Error(
      `${file}: the plan was not saved: it would hold a secret the manifests reference, which is also part of what the plan must keep as written (an object's name, a cluster's address): rename the object or change the secret`,
    );
  }
  // A new file renamed over the old one: owner-only even when a plan was saved there before.
  await replaceFile(file, JSON.stringify(saved, null, 2) + '\n', 0o600);
}

/** How many field problems one error lists before "and N more". */
const LISTED_PROBLEMS = 10;

/**
 * Reads a saved plan; throws an Error with a plain message naming the file (and each field that
 * is wrong) when the file is not a complete saved plan of this format version.
 */
export async function readSavedPlan(file: string): Promise<SavedPlan> {
  let raw: unknown;
  try {
    raw = JSON.parse(await readFile(file, 'utf8'));
  } catch (err) {
    throw new Error(`${file}: not a saved lockstep plan (${unreadable(err)})`);
  }
  const o = raw as Partial<SavedPlan> | null;
  if (o === null || typeof o !== 'object' || Array.isArray(o) || o.kind !== 'lockstep-plan') {
    throw new Error(`${file}: not a saved lockstep plan`);
  }
  if (o.formatVersion !== PLAN_FORMAT_VERSION) {
    const version: unknown = o.formatVersion;
    const theirs = typeof version === 'number' && Number.isSafeInteger(version) ? `its formatVersion is ${version}` : 'its formatVersion is not a number';
    throw new Error(`${file}: not a saved lockstep plan of format version ${PLAN_FORMAT_VERSION} (${theirs}; this build reads only ${PLAN_FORMAT_VERSION}: make the plan again)`);
  }
  const problems = savedPlanProblems(raw);
  if (problems.length > 0) {
    const listed = problems.slice(0, LISTED_PROBLEMS).map((p) => `${file}: ${p.field}: ${p.problem}`);
    if (problems.length > LISTED_PROBLEMS) listed.push(`${file}: and ${problems.length - LISTED_PROBLEMS} more`);
    // Each problem its own error: printed as a line each (commands/errors.ts cliErrorOf), never split on what a line quotes.
    throw new AggregateError(listed.map((line) => new Error(line)), listed.join('\n'));
  }
  const checked = o as SavedPlan;
  return {
    ...checked,
    options: { ...checked.options, allowUnreachablePrimary: checked.options.allowUnreachablePrimary ?? false, force: checked.options.force ?? false },
    plan: revivePlan(checked.plan),
  };
}

/** Why a file is not JSON, without quoting it (V8's messages quote the text around the error). */
function unreadable(err: unknown): string {
  if (!(err instanceof SyntaxError)) return (err as Error).message;
  return /end of JSON input|Unterminated/i.test(err.message) ? 'the JSON ends early: is the file complete?' : 'the file is not valid JSON';
}

/** Addresses were serialised as strings (savedPlanProblems checked each parses); Address objects again. */
function revivePlan(p: Plan): Plan {
  const addr = (s: unknown): Address => Address.parse(s as string)!;
  return {
    ...p,
    changes: p.changes.map((c) => ({
      ...c,
      address: addr(c.address),
      dependsOn: c.dependsOn.map(addr),
      ...(c.owner ? { owner: addr(c.owner) } : {}),
      guards: c.guards.map((g) => ({ ...g, address: addr(g.address) })),
    })),
    unmanaged: p.unmanaged.map((u) => ({ ...u, address: addr(u.address) })),
    notes: p.notes.map((n) => (n.address ? { ...n, address: addr(n.address) } : n)),
    ...(p.accessChanges ? { accessChanges: p.accessChanges.map((a) => ({ ...a, method: addr(a.method) })) } : {}),
  };
}

/** A cluster the manifests now place at another address than the saved plan read it at. */
export interface MovedCluster {
  cluster: string;
  planned: string;
  now: string;
}

/** The clusters of both the saved plan and the run whose address is not the same. */
export function movedClusters(saved: SavedPlan, now: ReadonlyMap<string, { address: string }>): MovedCluster[] {
  const planned = saved.clusterAddresses ?? {};
  return Object.keys(planned)
    .sort()
    .flatMap((cluster) => {
      const current = now.get(cluster)?.address;
      return current !== undefined && current !== planned[cluster] ? [{ cluster, planned: planned[cluster]!, now: current }] : [];
    });
}

/** Addresses whose fingerprint changed since the plan was made (missing on either side counts). */
export function staleAddresses(saved: Record<string, string>, now: Record<string, string>): string[] {
  const keys = new Set([...Object.keys(saved), ...Object.keys(now)]);
  return [...keys].filter((k) => saved[k] !== now[k]).sort();
}

/**
 * Two plans are the same when their changes are (addresses, actions and values). Plans saved by
 * earlier builds also recorded each change's `source` position: that is not compared.
 */
export function samePlan(a: Plan, b: Plan): boolean {
  const key = (c: Change): JsonObject => JSON.parse(JSON.stringify({ ...c, source: undefined })) as JsonObject;
  return JSON.stringify(a.changes.map(key)) === JSON.stringify(b.changes.map(key));
}

/**
 * Where the manifests of a saved plan are now: at their absolute paths when they all exist, else
 * at their relative ones from `cwd` when those all do (the repository checked out elsewhere).
 * Either way apply then compares the manifests' digest with the plan's, so a different tree
 * found this way is refused as stale, never applied.
 */
export async function locateManifests(saved: SavedPlan, cwd: string): Promise<string[]> {
  const exist = async (paths: string[]): Promise<boolean> =>
    (await Promise.all(paths.map((p) => access(p).then(() => true, () => false)))).every(Boolean);
  if (await exist(saved.manifestPaths)) return saved.manifestPaths;
  const relative = saved.manifestPathsRelative?.map((p) => path.resolve(cwd, p));
  if (relative && relative.length === saved.manifestPaths.length && (await exist(relative))) return relative;
  return saved.manifestPaths;
}
