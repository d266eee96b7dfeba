import { stat } from 'node:fs/promises';
import type { Command } from 'commander';
import type { RunDeadline } from '../client/deadline.js';
import { runChanges } from '../apply/applier.js';
import { fingerprintAll } from '../core/fingerprint.js';
import type { Plan } from '../core/plan.js';
import { locateManifests, movedClusters, readSavedPlan, samePlan, staleAddresses, type SavedPlan } from '../planfile/planfile.js';
import { applyToJson, type ApplyRecord } from '../render/apply-json.js';
import { renderApplyProgress, renderApplyReport } from '../render/apply-report.js';
import { concurrencySummary, withClientPool, type ClusterClientPool } from './clients.js';
import { accessReviewOption, addPlanningOptions, formatOption, globalOptions, planFlagsOf, type GlobalOptions, type PlanningFlags, referenceFlags } from './common-options.js';
import { CliError, cliErrorOf } from './errors.js';
import { signalExitCode, type Interruption } from './interrupt.js';
import { manifestDigest } from './manifest-digest.js';
import { printJson, type Output } from './output.js';
import { withRequestProgress } from './progress.js';
import { computePlan, describeError, type PlanRun } from '../engine/plan.js';
import { checkWholeSet, parseTargets, prepareAndReport, refuseManifestErrors, refuseOnErrors } from './pipeline.js';
import { renderPlan } from './render-plan.js';
import type { PlanFlags } from '../kinds/kind.js';
import type { Prepared } from '../validate/prepare.js';

interface ApplyFlags extends PlanningFlags {
  autoApprove?: boolean;
  allowDestructive?: boolean;
  format: 'text' | 'json';
}

export function registerApply(program: Command, output: () => Output, exit: (code: number) => void, interruption?: Interruption): void {
  const command = program
    .command('apply')
    .description('make the live servers match the manifests (or carry out a saved plan)')
    .argument('<paths...>', 'manifest files or directories, or one saved plan file')
    .option('--auto-approve', 'apply without asking (required when not on a terminal)')
    .option('--allow-destructive', 'allow actions that wipe or orphan data, or take access away (a pruned LDAP user or group)')
    .addOption(formatOption(['text', 'json']))
    .addOption(accessReviewOption());
  addPlanningOptions(command).action(async (paths: string[], flags: ApplyFlags, cmd: Command) => {
    const g = globalOptions(cmd);
    const out = output();
    if (flags.format === 'json') {
      exit(await applyAsJson(paths, flags, g, out, interruption));
      return;
    }
    // A signal before the changes start abandons the run (interrupt.ts): nothing was changed, and the report says so.
    interruption?.onAbandon((signal, unmuted) => unmuted.out(`Apply interrupted by ${signal} before any change started: nothing was changed.`));
    exit(await runApply(paths, flags, g, out, undefined, interruption));
  });
}

/**
 * `apply --format json`: one JSON document on stdout whatever happens (applied, failed, refused),
 * what the run got to recorded on the way; the exit status and the stderr of a text run kept.
 */
async function applyAsJson(paths: string[], flags: ApplyFlags, g: GlobalOptions, output: Output, interruption: Interruption | undefined): Promise<number> {
  const record: ApplyRecord = { plan: undefined, outcome: undefined, diagnostics: [], refusal: undefined };
  // A signal before the changes start abandons the run: the document still comes, every change skipped.
  interruption?.onAbandon((signal, unmuted) => {
    record.interruptedBy = signal;
    printJson({ ...output, out: (t) => unmuted.out(t) }, applyToJson(record));
  });
  try {
    const code = await runApply(paths, flags, g, output, record, interruption);
    printJson(output, applyToJson(record));
    return code;
  } catch (err) {
    record.refusal = cliErrorOf(err).lines.join('\n');
    printJson(output, applyToJson(record));
    throw err;
  }
}

/** `json`: the record of a `--format json` run (stdout then holds nothing else); undefined for text. */
async function runApply(args: string[], flags: ApplyFlags, g: GlobalOptions, output: Output, json: ApplyRecord | undefined, interruption: Interruption | undefined): Promise<number> {
  const saved = await savedPlanArgument(args);
  // The approval prompt writes to stdout, where the JSON document goes: as Terraform's -json, only with approval given.
  if (json && !saved && flags.autoApprove !== true) {
    throw new CliError('apply --format json needs --auto-approve (or a saved plan): it cannot ask for approval; nothing was changed');
  }
  const paths = saved ? await locateManifests(saved, process.cwd()) : args;
  const prune = saved ? saved.options.prune : flags.prune === true;
  const planFlags = saved
    ? { syncSecrets: saved.options.syncSecrets, allowUnreachablePrimary: saved.options.allowUnreachablePrimary, force: saved.options.force }
    : planFlagsOf(flags);
  const targets = parseTargets(saved ? saved.options.targets : flags.target);

  const prepared = await prepareAndReport(paths, { ...referenceFlags(g), prune, requireClusters: true }, output);
  json?.diagnostics.push(...prepared.diags.items);
  refuseManifestErrors(prepared);
  if (saved) refuseElsewhere(saved, prepared.clusters);
  if (saved && manifestDigest(prepared) !== saved.manifestDigest) {
    throw new CliError('the saved plan is stale: the manifests changed since it was made; run plan again');
  }
  return withClientPool(prepared.clusters, { concurrency: flags.concurrency, limits: g, logLevel: g.logLevel, interruption }, output, (pool) =>
    applyWith(pool, prepared, saved, {
      flags,
      g,
      output,
      json,
      targets,
      planFlags,
      paths,
      prune,
      allowPartial: saved ? saved.options.allowPartial === true : flags.allowPartial === true,
      interruption,
    }),
  );
}

async function applyWith(
  pool: ClusterClientPool,
  prepared: Prepared,
  saved: SavedPlan | undefined,
  ctx: {
    flags: ApplyFlags;
    g: GlobalOptions;
    output: Output;
    json: ApplyRecord | undefined;
    targets: ReturnType<typeof parseTargets>;
    planFlags: PlanFlags;
    paths: string[];
    prune: boolean;
    allowPartial: boolean;
    interruption: Interruption | undefined;
  },
): Promise<number> {
  const { flags, g, output, json, targets, planFlags, interruption } = ctx;
  const run = await withRequestProgress(output, () => pool.requestCount, computePlan(prepared, pool, { flags: planFlags, targets, redaction: output.redaction, strictPolicies: flags.strictPolicies === true, accessReview: flags.accessReview }));
  await checkWholeSet(ctx.paths, run, { ...referenceFlags(g), prune: ctx.prune, requireClusters: true, allowPartial: ctx.allowPartial });
  if (json) {
    json.plan = run.plan;
    json.diagnostics.push(...run.diagnostics.items);
  }
  refuseOnErrors(run, output, 'nothing was changed');
  if (saved) refuseStale(saved, run);

  const color = output.color && g.color;
  // With --format json, the plan is in the document (its changes) and progress goes to stderr.
  if (!json) output.out(renderPlan(run.plan, 'text', { color }));
  const progress = (line: string): void => (json ? output.err(line) : output.out(line));
  if (run.plan.changes.length === 0) {
    for (const line of concurrencySummary(pool, g.verbose)) output.err(line);
    return 0;
  }
  refuseDestructive(run.plan, flags.allowDestructive === true);
  if (!saved) await requireApproval(flags.autoApprove === true, output, g.deadline);

  // From here a signal stops the run as a failure does: nothing new starts, those in flight end, the report follows.
  const stop = new AbortController();
  let inFlight = 0;
  let ended = false;
  interruption?.gracefully((signal) => {
    stop.abort();
    if (!ended) output.err(`interrupted by ${signal}: no new change starts; waiting for the ${inFlight} in flight to finish (${signal} again exits at once)`);
  });
  const scratch = new Map<string, unknown>();
  const outcome = await runChanges(
    run.plan.changes,
    async (change) => {
      const entry = run.desired.get(change.owner ?? change.address);
      const kind = entry?.kind ?? prepared.kinds.find((k) => k.resourceTypes.includes(change.resourceType));
      if (!kind) throw new Error(`no kind applies ${change.resourceType}`);
      await kind.apply(change, entry?.resource, { client: pool.get(change.address.cluster), clients: pool, run: scratch, redaction: run.redaction });
    },
    {
      concurrency: (clustersWithPending) => pool.applyConcurrency(clustersWithPending),
      describeError: (err) => describeError(err, run.redaction),
      onEvent: (e) => {
        inFlight += e.type === 'start' ? 1 : -1;
        if (e.type !== 'start') progress(renderApplyProgress(e, { color: json ? false : color }));
      },
      stop: stop.signal,
    },
  );
  ended = true;
  const interruptedBy = stop.signal.aborted ? interruption?.signal : undefined;
  if (json) {
    json.outcome = outcome;
    json.interruptedBy = interruptedBy;
  } else output.out(renderApplyReport(outcome, { color, interruptedBy }));
  for (const line of concurrencySummary(pool, g.verbose)) output.err(line);
  if (interruptedBy !== undefined) return signalExitCode(interruptedBy);
  return outcome.failed.length > 0 || outcome.notStarted.length > 0 ? 1 : 0;
}

/** A single argument that is a file but not a manifest is a saved plan. */
async function savedPlanArgument(args: string[]): Promise<SavedPlan | undefined> {
  if (args.length !== 1 || /\.ya?ml$/i.test(args[0]!)) return undefined;
  const info = await stat(args[0]!).catch(() => undefined);
  if (!info?.isFile()) return undefined;
  try {
    return await readSavedPlan(args[0]!);
  } catch (err) {
    throw cliErrorOf(err);
  }
}

/** A plan read from some servers is not applied to others: said before the manifests' digest, which holds the addresses too. */
function refuseElsewhere(saved: SavedPlan, clusters: ReadonlyMap<string, { address: string }>): void {
  const moved = movedClusters(saved, clusters);
  if (moved.length === 0) return;
  throw new CliError([
    'the saved plan was made against other servers than this run would apply it to:',
    ...moved.map((m) => `  cluster "${m.cluster}": planned at ${m.planned}, now at ${m.now}`),
    'run plan against these servers (nothing was changed)',
  ]);
}

function refuseStale(saved: SavedPlan, run: PlanRun): void {
  const moved = staleAddresses(saved.fingerprints, fingerprintAll(run.observed));
  if (moved.length > 0) {
    throw new CliError(['the saved plan is stale: these objects changed since it was made:', ...moved.map((a) => `  ${a}`), 'run plan again']);
  }
  if (!samePlan(saved.plan, run.plan)) throw new CliError('the saved plan is stale: the changes it would make are no longer the same; run plan again');
}

function refuseDestructive(plan: Plan, allowed: boolean): void {
  const destructive = plan.changes.filter((c) => c.destructive);
  if (destructive.length === 0 || allowed) return;
  throw new CliError([
    `refusing to apply: ${destructive.length} destructive action${destructive.length === 1 ? '' : 's'} (they wipe or orphan data, or take access away):`,
    ...destructive.map((c) => `  ${c.address}`),
    'review them and pass --allow-destructive to proceed; nothing was changed',
  ]);
}

async function requireApproval(autoApprove: boolean, output: Output, deadline: RunDeadline | undefined): Promise<void> {
  if (autoApprove) return;
  if (!output.interactive) {
    throw new CliError('refusing to apply without approval: standard input is not a terminal; pass --auto-approve (nothing was changed)');
  }
  // Time at the prompt is the reader's, not the run's: --timeout does not count it.
  const question = output.prompt("Do you want to perform these actions? Only 'yes' will be accepted: ");
  const answer = await (deadline ? deadline.excluding(question) : question);
  if (answer.trim() !== 'yes') throw new CliError('apply cancelled; nothing was changed');
}
