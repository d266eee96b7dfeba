import { readFile } from 'node:fs/promises';
import type { Command } from 'commander';
import { renderLogMarkdown } from '../render/markdown.js';
import { CliError } from './errors.js';
import type { Output } from './output.js';

interface LogCommentFlags {
  title: string;
}

/**
 * `lockstep log-comment FILE --title TEXT`: a log (what lockstep printed when a plan or an
 * apply failed) as a markdown comment, so the CI scripts never paste raw text into a fence of
 * their own: the log's lines go through the one printer and into a code block longer than any
 * backtick run in it (render/markdown.ts renderLogMarkdown).
 */
export function registerLogComment(program: Command, output: () => Output, exit: (code: number) => void): void {
  program
    .command('log-comment')
    .description('print a log file as a markdown comment (a heading, then the log in a code block it cannot close); for CI scripts')
    .argument('<file>', 'the log, e.g. the stderr of a failed plan')
    .requiredOption('--title <text>', 'the heading, e.g. "lockstep plan failed"')
    .action(async (file: string, flags: LogCommentFlags) => {
      const out = output();
      const log = await readFile(file, 'utf8').catch((err: unknown) => {
        throw new CliError(`cannot read ${file}: ${(err as NodeJS.ErrnoException).code ?? String(err)}`);
      });
      out.out(renderLogMarkdown(flags.title, log));
      exit(0);
    });
}
