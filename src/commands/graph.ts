import type { Command } from 'commander';
import { renderPlanDot } from '../render/dot.js';
import type { Interruption } from './interrupt.js';
import { withClientPool } from './clients.js';
import { addPlanningOptions, globalOptions, planFlagsOf, type PlanningFlags, referenceFlags } from './common-options.js';
import type { Output } from './output.js';
import { withRequestProgress } from './progress.js';
import { computePlan } from '../engine/plan.js';
import { parseTargets, prepareOrFail, refuseOnErrors } from './pipeline.js';

/**
 * `lockstep graph PATH...`: the plan `plan` would show, as a Graphviz DOT digraph of its
 * dependency order (as `terraform graph`): `lockstep graph manifests/ | dot -Tsvg > plan.svg`.
 * Reads the servers like `plan`, changes nothing.
 */
export function registerGraph(program: Command, output: () => Output, exit: (code: number) => void, interruption?: Interruption): void {
  const command = program
    .command('graph')
    .description("print the plan's dependency order as Graphviz DOT (render with `dot -Tsvg`)")
    .argument('<paths...>', 'manifest files or directories');
  addPlanningOptions(command).action(async (paths: string[], flags: PlanningFlags, cmd: Command) => {
    const g = globalOptions(cmd);
    const out = output();
    const prepared = await prepareOrFail(paths, { ...referenceFlags(g), prune: flags.prune === true, requireClusters: true }, out);
    const run = await withClientPool(prepared.clusters, { concurrency: flags.concurrency, limits: g, logLevel: g.logLevel, interruption }, out, (pool) => {
      const plan = computePlan(prepared, pool, { flags: planFlagsOf(flags), targets: parseTargets(flags.target), redaction: out.redaction, strictPolicies: flags.strictPolicies === true, accessReview: 'off' });
      return withRequestProgress(out, () => pool.requestCount, plan);
    });
    refuseOnErrors(run, out, 'no graph was drawn');
    out.out(renderPlanDot(run.plan));
    exit(0);
  });
}
