import { Address } from '../core/address.js';
import { tallyErrors, type Diagnostics } from '../core/diagnostics.js';
import { deletesOfTheRest } from '../engine/partial.js';
import { secretTextsOf, type PlanRun } from '../engine/plan.js';
import { prepare, type Prepared } from '../validate/prepare.js';
import { CliError } from './errors.js';
import type { Output } from './output.js';

/**
 * What the commands share around the engine (src/engine/): reading the manifests, and turning
 * the engine's diagnostics into output and an exit status. Nothing here plans.
 */
export interface ManifestOptions {
  allowPlaintextSecrets: boolean;
  allowFilesOutsideRoot: boolean;
  prune: boolean;
  /** validate needs no server; every other command does. */
  requireClusters: boolean;
}

/** load → validate → normalise. Prints every diagnostic; refuses (exit 1) on any error. */
export async function prepareOrFail(paths: string[], opts: ManifestOptions, output: Output): Promise<Prepared> {
  const prepared = await prepareAndReport(paths, opts, output);
  refuseManifestErrors(prepared);
  return prepared;
}

/** load → validate → normalise, every diagnostic printed; errors or not (`--format json` carries them). */
export async function prepareAndReport(paths: string[], opts: ManifestOptions, output: Output): Promise<Prepared> {
  if (paths.length === 0) throw new CliError('no manifest paths given');
  const prepared = await prepare(paths, { ...opts, env: process.env });
  // Before anything is printed: every secret of the run, whatever field it was read into.
  output.redaction.addAll(secretTextsOf(prepared));
  printDiagnostics(prepared.diags, output);
  return prepared;
}

/** Fails the run (exit 1) when preparing found any error (printed already), counted by origin (tallyErrors). */
export function refuseManifestErrors(prepared: Pick<Prepared, 'diags'>): void {
  if (!prepared.diags.hasErrors()) return;
  throw new CliError(`${tallyErrors(prepared.diags)}; nothing was sent to any server`);
}

function printDiagnostics(diags: Diagnostics, output: Output): void {
  for (const line of diags.format()) output.err(line);
}

/**
 * Prints what the engine found (stderr, every problem at once) and fails the run (exit 1) when
 * any of it is an error, saying what became of the run (`outcome`: "it was not saved").
 */
export function refuseOnErrors(run: Pick<PlanRun, 'diagnostics'>, output: Output, outcome: string): void {
  printDiagnostics(run.diagnostics, output);
  if (!run.diagnostics.hasErrors()) return;
  throw new CliError(`the plan is refused (${tallyErrors(run.diagnostics)}, above): ${outcome}`);
}

/**
 * The manifest set is the unit: unless `allowPartial`, deletes of what the rest of the set
 * declares (files under the same root this run did not read) join the run's errors.
 */
export async function checkWholeSet(paths: string[], run: PlanRun, opts: ManifestOptions & { allowPartial: boolean }): Promise<void> {
  if (opts.allowPartial) return;
  run.diagnostics.append(await deletesOfTheRest(paths, run.plan, (set) => prepare(set, { ...opts, env: process.env })));
}

export function parseTargets(values: string[] | undefined): Address[] {
  return (values ?? []).map((v) => {
    const a = Address.parse(v);
    if (!a) throw new CliError(`--target ${JSON.stringify(v)} is not an address (cluster:path, e.g. east:auth/ldap/users/alice)`);
    // An empty segment is no name: `ldap//groups` is a mistyped address, not `ldap/groups` (a
    // slash at either end is allowed).
    if (/[^/]\/\/+[^/]/.test(v.slice(v.indexOf(':') + 1))) throw new CliError(`--target ${JSON.stringify(v)} has an empty segment ("//"): name each segment of the path`);
    return a;
  });
}
