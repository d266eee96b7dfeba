import type { Command } from 'commander';
import { readSavedPlan } from '../planfile/planfile.js';
import { formatOption, globalOptions } from './common-options.js';
import { commentLimitOption } from './comment-limit.js';
import { cliErrorOf } from './errors.js';
import type { Output } from './output.js';
import { renderPlan, type PlanFormat } from './render-plan.js';

interface ShowFlags {
  format: PlanFormat;
  commentLimit: number;
}

/**
 * `lockstep show PLANFILE`: a saved plan in any format, without reading a server. CI saves the
 * plan once (`plan --out`), shows it in the log, posts it as a comment, and applies exactly it.
 */
export function registerShow(program: Command, output: () => Output, exit: (code: number) => void): void {
  program
    .command('show')
    .description('print a saved plan (from `plan --out`) in any format; reads no server')
    .argument('<planfile>', 'a plan saved by `plan --out`')
    .addOption(formatOption())
    .addOption(commentLimitOption())
    .action(async (file: string, flags: ShowFlags, cmd: Command) => {
      const g = globalOptions(cmd);
      const out = output();
      const saved = await readSavedPlan(file).catch((err: unknown) => {
        throw cliErrorOf(err);
      });
      out.out(renderPlan(saved.plan, flags.format, { color: out.color && g.color, commentLimit: flags.commentLimit }));
      exit(0);
    });
}
