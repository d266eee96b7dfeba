import path from 'node:path';
import type { Command } from 'commander';
import { fingerprintAll } from '../core/fingerprint.js';
import { PLAN_FORMAT_VERSION } from '../core/plan.js';
import { writeSavedPlan } from '../planfile/planfile.js';
import { ClusterClientPool, concurrencySummary, parseConcurrency } from './clients.js';
import { addPlanningOptions, formatOption, globalOptions, planFlagsOf, type PlanningFlags, referenceFlags } from './common-options.js';
import { commentLimitOption, parseCommentLimit } from './comment-limit.js';
import { manifestDigest } from './manifest-digest.js';
import type { Output } from './output.js';
import { withRequestProgress } from './progress.js';
import { computePlan, parseTargets, prepareOrFail, refuseUnserved } from './pipeline.js';
import { renderPlan, type PlanFormat } from './render-plan.js';

interface PlanCommandFlags extends PlanningFlags {
  out?: string;
  format: PlanFormat;
  commentLimit: string;
  detailedExitcode?: boolean;
}

export function registerPlan(program: Command, output: () => Output, exit: (code: number) => void): void {
  const command = program
    .command('plan')
    .description('read the live servers and show the changes that apply would make')
    .argument('<paths...>', 'manifest files or directories')
    .option('--out <file>', 'save the plan for `apply <file>`')
    .addOption(formatOption())
    .addOption(commentLimitOption())
    .option('--detailed-exitcode', 'exit 2 when there are changes');
  addPlanningOptions(command).action(async (paths: string[], flags: PlanCommandFlags, cmd: Command) => {
    exit(await runPlan(paths, flags, globalOptions(cmd), output()));
  });
}

async function runPlan(paths: string[], flags: PlanCommandFlags, g: ReturnType<typeof globalOptions>, output: Output): Promise<number> {
  const targets = parseTargets(flags.target);
  const commentLimit = parseCommentLimit(flags.commentLimit);
  const prune = flags.prune === true;
  const prepared = await prepareOrFail(paths, { ...referenceFlags(g), prune, requireClusters: true }, output);
  const pool = new ClusterClientPool(prepared.clusters, parseConcurrency(flags.concurrency), g);
  const planFlags = planFlagsOf(flags);
  const run = await withRequestProgress(output, () => pool.requestCount, computePlan(prepared, pool, { flags: planFlags, targets, redaction: output.redaction }));
  output.out(renderPlan(run.plan, flags.format, { color: output.color && g.color, commentLimit }));
  for (const line of concurrencySummary(pool)) output.err(line);
  refuseUnserved(run, output, `the plan above leaves {them} out${flags.out === undefined ? '' : ', and was not saved'}`);
  if (flags.out) {
    await writeSavedPlan(flags.out, {
      formatVersion: PLAN_FORMAT_VERSION,
      kind: 'lockstep-plan',
      createdAt: new Date().toISOString(),
      manifestPaths: paths.map((p) => path.resolve(p)),
      manifestPathsRelative: paths.map((p) => path.relative(process.cwd(), path.resolve(p)) || '.'),
      manifestDigest: manifestDigest(prepared),
      options: { prune, targets: targets.map(String), ...planFlags },
      fingerprints: fingerprintAll(run.observed),
      plan: run.plan,
    });
    if (flags.format === 'text') output.out(`Saved the plan to ${flags.out}; run "lockstep apply ${flags.out}" to apply exactly these changes.`);
  }
  return flags.detailedExitcode && run.plan.changes.length > 0 ? 2 : 0;
}
