import type { Command } from 'commander';
import { printable } from '../core/text-escape.js';
import { planDifferences } from '../planfile/compare.js';
import { readSavedPlan, warningsOf, type SavedPlan } from '../planfile/planfile.js';
import { formatOption, globalOptions } from './common-options.js';
import { commentLimitOption } from './comment-limit.js';
import { cliErrorOf } from './errors.js';
import type { Output } from './output.js';
import { renderPlan, type PlanFormat } from './render-plan.js';

interface ShowFlags {
  format: PlanFormat;
  commentLimit: number;
  sameAs?: string;
}

/**
 * `lockstep show PLANFILE`: a saved plan in any format, without reading a server. CI saves the
 * plan once (`plan --out`), shows it in the log, posts it as a comment, and applies exactly it.
 * `--same-as REVIEWED` also compares it with the plan that was reviewed (CI's re-plan path when
 * the branch moved after the review): exit 0 when it would do exactly the reviewed changes on
 * the same servers, 2 (each difference on stderr) when not.
 */
export function registerShow(program: Command, output: () => Output, exit: (code: number) => void): void {
  program
    .command('show')
    .description('print a saved plan (from `plan --out`) in any format; reads no server')
    .argument('<planfile>', 'a plan saved by `plan --out`')
    .addOption(formatOption())
    .addOption(commentLimitOption())
    .option('--same-as <reviewed>', 'exit 0 when the plan makes exactly the changes of this saved plan (the reviewed one) on the same servers, 2 when not')
    .action(async (file: string, flags: ShowFlags, cmd: Command) => {
      const g = globalOptions(cmd);
      const out = output();
      const saved = await read(file);
      const reviewed = flags.sameAs === undefined ? undefined : await read(flags.sameAs);
      // As plan printed it: its warnings in the JSON and markdown, and on stderr.
      const warnings = warningsOf(saved);
      out.out(renderPlan(saved.plan, flags.format, { color: out.color && g.color, commentLimit: flags.commentLimit, diagnostics: warnings }));
      for (const line of warnings.format()) out.err(line);
      if (reviewed === undefined) return exit(0);
      const differences = planDifferences(reviewed, saved);
      if (differences.length === 0) return exit(0);
      // What the lines quote (addresses) comes from manifests and servers: one printer for it.
      out.err([`${file} does not make exactly the changes of ${flags.sameAs}:`, ...differences.map((d) => `  ${d}`)].map(printable).join('\n'));
      exit(2);
    });
}

async function read(file: string): Promise<SavedPlan> {
  return readSavedPlan(file).catch((err: unknown) => {
    throw cliErrorOf(err);
  });
}
