import type { Command } from 'commander';
import { globalOptions, referenceFlags } from './common-options.js';
import type { Output } from './output.js';
import { prepareOrFail } from './pipeline.js';

export function registerValidate(program: Command, output: () => Output, exit: (code: number) => void): void {
  program
    .command('validate')
    .description('check manifests against the schemas and the spec rules (no network)')
    .argument('<paths...>', 'manifest files or directories')
    .action(async (paths: string[], _flags: unknown, cmd: Command) => {
      const g = globalOptions(cmd);
      const out = output();
      const prepared = await prepareOrFail(paths, { ...referenceFlags(g), prune: false, requireClusters: false }, out);
      const n = [...prepared.documents.values()].reduce((sum, docs) => sum + docs.length, 0);
      out.out(`Valid: ${n} document${n === 1 ? '' : 's'}.`);
      exit(0);
    });
}
