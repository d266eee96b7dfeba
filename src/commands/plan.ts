import path from 'node:path';
import type { Command } from 'commander';
import { fingerprintAll } from '../core/fingerprint.js';
import { PLAN_FORMAT_VERSION } from '../core/plan.js';
import { savedWarnings, writeSavedPlan } from '../planfile/planfile.js';
import type { Interruption } from './interrupt.js';
import { concurrencySummary, withClientPool, type ClusterClientPool } from './clients.js';
import { accessReviewOption, addPlanningOptions, formatOption, globalOptions, planFlagsOf, type PlanningFlags, referenceFlags } from './common-options.js';
import { commentLimitOption } from './comment-limit.js';
import { manifestDigest } from './manifest-digest.js';
import type { Output } from './output.js';
import { withRequestProgress } from './progress.js';
import { computePlan } from '../engine/plan.js';
import { checkWholeSet, parseTargets, prepareOrFail, refuseOnErrors } from './pipeline.js';
import { renderPlan, type PlanFormat } from './render-plan.js';

interface PlanCommandFlags extends PlanningFlags {
  out?: string;
  format: PlanFormat;
  commentLimit: number;
  detailedExitcode?: boolean;
  ignoreUnmanaged?: boolean;
}

export function registerPlan(program: Command, output: () => Output, exit: (code: number) => void, interruption?: Interruption): void {
  const command = program
    .command('plan')
    .description('read the live servers and show the changes that apply would make')
    .argument('<paths...>', 'manifest files or directories')
    .option('--out <file>', 'save the plan for `apply <file>`')
    .addOption(formatOption())
    .addOption(commentLimitOption())
    .option('--detailed-exitcode', 'exit 2 when there are changes or unmanaged objects (the drift check)')
    .option('--ignore-unmanaged', 'with --detailed-exitcode: unmanaged objects alone do not count as drift')
    .addOption(accessReviewOption());
  addPlanningOptions(command).action(async (paths: string[], flags: PlanCommandFlags, cmd: Command) => {
    exit(await runPlan(paths, flags, globalOptions(cmd), output(), interruption));
  });
}

async function runPlan(paths: string[], flags: PlanCommandFlags, g: ReturnType<typeof globalOptions>, output: Output, interruption: Interruption | undefined): Promise<number> {
  const targets = parseTargets(flags.target);
  const prune = flags.prune === true;
  const prepared = await prepareOrFail(paths, { ...referenceFlags(g), prune, requireClusters: true }, output);
  return withClientPool(prepared.clusters, { concurrency: flags.concurrency, limits: g, logLevel: g.logLevel, interruption }, output, (pool) =>
    planWith(pool, prepared, paths, { flags, g, output, targets, prune }),
  );
}

async function planWith(
  pool: ClusterClientPool,
  prepared: Awaited<ReturnType<typeof prepareOrFail>>,
  paths: string[],
  ctx: { flags: PlanCommandFlags; g: ReturnType<typeof globalOptions>; output: Output; targets: ReturnType<typeof parseTargets>; prune: boolean },
): Promise<number> {
  const { flags, g, output, targets, prune } = ctx;
  const planFlags = planFlagsOf(flags);
  const run = await withRequestProgress(output, () => pool.requestCount, computePlan(prepared, pool, { flags: planFlags, targets, redaction: output.redaction, strictPolicies: flags.strictPolicies === true, accessReview: flags.accessReview }));
  await checkWholeSet(paths, run, { ...referenceFlags(g), prune, requireClusters: true, allowPartial: flags.allowPartial === true });
  const failed = run.diagnostics.hasErrors();
  // A plan the engine could not finish is shown only for what it holds (the documents a server
  // lacks left out); "No changes" would be a lie. JSON always prints, its diagnostics[] included.
  if (flags.format === 'json' || !failed || run.plan.changes.length > 0 || run.plan.unmanaged.length > 0) {
    output.out(renderPlan(run.plan, flags.format, { color: output.color && g.color, commentLimit: flags.commentLimit, diagnostics: run.diagnostics }));
  }
  for (const line of concurrencySummary(pool, g.verbose)) output.err(line);
  refuseOnErrors(run, output, flags.out === undefined ? 'it must not be applied' : 'it was not saved');
  if (flags.out) {
    await writeSavedPlan(flags.out, {
      formatVersion: PLAN_FORMAT_VERSION,
      kind: 'lockstep-plan',
      createdAt: new Date().toISOString(),
      manifestPaths: paths.map((p) => path.resolve(p)),
      manifestPathsRelative: paths.map((p) => path.relative(process.cwd(), path.resolve(p)) || '.'),
      manifestDigest: manifestDigest(prepared),
      clusterAddresses: Object.fromEntries([...prepared.clusters].map(([name, target]) => [name, target.address])),
      options: { prune, targets: targets.map(String), ...planFlags, ...(flags.allowPartial ? { allowPartial: true } : {}) },
      fingerprints: fingerprintAll(run.observed),
      plan: run.plan,
      // Files lockstep writes hold no secret, in any field.
      warnings: output.redaction.redactValue(savedWarnings(run.diagnostics)),
    }, output.redaction);
    if (flags.format === 'text') output.out(`Saved the plan to ${flags.out}; run "lockstep apply ${flags.out}" to apply exactly these changes.`);
  }
  // A rogue object (a user mapped to root, added by hand) is drift too, unless told otherwise.
  const drift = run.plan.changes.length > 0 || (run.plan.unmanaged.length > 0 && flags.ignoreUnmanaged !== true);
  return flags.detailedExitcode && drift ? 2 : 0;
}
