import path from 'node:path';
import type { Command } from 'commander';
import { PLAN_FORMAT_VERSION } from '../core/plan.js';
import { writeSavedPlan } from '../planfile/planfile.js';
import { ClusterClientPool, parseConcurrency } from './clients.js';
import { collect, formatOption, globalOptions } from './common-options.js';
import { manifestDigest } from './manifest-digest.js';
import type { Output } from './output.js';
import { computePlan, parseTargets, prepareOrFail } from './pipeline.js';
import { renderPlan, type PlanFormat } from './render-plan.js';

interface PlanFlags {
  out?: string;
  format: PlanFormat;
  detailedExitcode?: boolean;
  prune?: boolean;
  target?: string[];
  concurrency?: string;
  syncSecrets?: boolean;
  allowUnreachablePrimary?: boolean;
  forcePromote?: boolean;
}

export function registerPlan(program: Command, output: () => Output, exit: (code: number) => void): void {
  program
    .command('plan')
    .description('read the live servers and show the changes that apply would make')
    .argument('<paths...>', 'manifest files or directories')
    .option('--out <file>', 'save the plan for `apply <file>`')
    .addOption(formatOption())
    .option('--detailed-exitcode', 'exit 2 when there are changes')
    .option('--prune', 'delete objects on the server that no manifest lists')
    .option('--target <address>', 'only this address and what it depends on (repeatable)', collect)
    .option('--concurrency <n>', 'requests in flight at once', '16')
    .option('--sync-secrets', 're-send write-only fields of objects that otherwise match')
    .option('--allow-unreachable-primary', 'DR: promote a secondary while the primary cannot be reached (unplanned failover)')
    .option('--force-promote', 'DR: promote with force, skipping the safety checks')
    .action(async (paths: string[], flags: PlanFlags, cmd: Command) => {
      exit(await runPlan(paths, flags, globalOptions(cmd), output()));
    });
}

async function runPlan(paths: string[], flags: PlanFlags, g: ReturnType<typeof globalOptions>, output: Output): Promise<number> {
  const targets = parseTargets(flags.target);
  const prune = flags.prune === true;
  const prepared = await prepareOrFail(paths, { allowPlaintextSecrets: g.allowPlaintextSecrets, prune, requireClusters: true }, output);
  const pool = new ClusterClientPool(prepared.clusters, parseConcurrency(flags.concurrency));
  const planFlags = { syncSecrets: flags.syncSecrets === true, allowUnreachablePrimary: flags.allowUnreachablePrimary === true, force: flags.forcePromote === true };
  const run = await computePlan(prepared, pool, { flags: planFlags, targets });
  output.out(renderPlan(run.plan, flags.format, output.color && g.color));
  if (flags.out) {
    await writeSavedPlan(flags.out, {
      formatVersion: PLAN_FORMAT_VERSION,
      kind: 'lockstep-plan',
      createdAt: new Date().toISOString(),
      manifestPaths: paths.map((p) => path.resolve(p)),
      manifestDigest: manifestDigest(prepared),
      options: { prune, targets: targets.map(String), ...planFlags },
      fingerprints: run.fingerprints,
      plan: run.plan,
    });
    if (flags.format === 'text') output.out(`Saved the plan to ${flags.out}; run "lockstep apply ${flags.out}" to apply exactly these changes.`);
  }
  return flags.detailedExitcode && run.plan.changes.length > 0 ? 2 : 0;
}
