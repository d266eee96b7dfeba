import type { Command } from 'commander';
import { validationToJson } from '../render/validate-json.js';
import { formatOption, globalOptions, referenceFlags } from './common-options.js';
import { printJson, type Output } from './output.js';
import { prepareAndReport, refuseManifestErrors } from './pipeline.js';

export function registerValidate(program: Command, output: () => Output, exit: (code: number) => void): void {
  program
    .command('validate')
    .description('check manifests against the schemas and the spec rules (no network)')
    .argument('<paths...>', 'manifest files or directories')
    .addOption(formatOption(['text', 'json']))
    .action(async (paths: string[], flags: { format: 'text' | 'json' }, cmd: Command) => {
      const g = globalOptions(cmd);
      const out = output();
      // Diagnostics go to stderr in both formats; json also carries them, with the verdict, on stdout.
      const prepared = await prepareAndReport(paths, { ...referenceFlags(g), prune: false, requireClusters: false }, out);
      if (flags.format === 'json') printJson(out, validationToJson(prepared.documentCount, prepared.diags));
      refuseManifestErrors(prepared);
      if (flags.format === 'text') {
        const n = [...prepared.documents.values()].reduce((sum, docs) => sum + docs.length, 0);
        out.out(`Valid: ${n} document${n === 1 ? '' : 's'}.`);
      }
      exit(0);
    });
}
