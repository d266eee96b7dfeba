import { printableAddress } from '../core/text-escape.js';
import type { ChalkInstance } from 'chalk';
import type { Change } from '../core/plan.js';
import { actionColor, actionSymbol, makeChalk, printable } from './vocabulary.js';

/** One moment of an apply, as the runner reports it. */
export interface ApplyEvent {
  type: 'start' | 'done' | 'failed';
  change: Change;
  /** For `failed`: a one-line, secret-free message. */
  error?: string;
  elapsedMs?: number;
}

/** How an apply ended (contract section 5: done / failed / not started). */
export interface ApplyReport {
  done: Change[];
  failed: Array<{ change: Change; error: string }>;
  notStarted: Change[];
}

/** `  ~ east:auth/ldap/config ... done (12ms)` / `... failed: <error>` / `...` on start. */
export function renderApplyProgress(event: ApplyEvent, opts: { color: boolean } = { color: false }): string {
  const chalk = makeChalk(opts.color);
  const head = `${changeLine(event.change, chalk)} ...`;
  switch (event.type) {
    case 'start':
      return head;
    case 'done':
      return `${head} ${chalk.green('done')}${event.elapsedMs !== undefined ? ` (${formatElapsed(event.elapsedMs)})` : ''}`;
    case 'failed':
      return `${head} ${chalk.red('failed')}: ${oneLine(event.error ?? 'unknown error')}`;
  }
}

/**
 * `Apply complete: N done.`, or on failure `Apply failed: N done, N failed, N not started.`
 * with the three lists, so the user knows exactly where the servers stand. `interruptedBy`: the
 * signal that stopped the run (`Apply interrupted by SIGTERM: ...`), said even when every change
 * had started.
 */
export function renderApplyReport(report: ApplyReport, opts: { color: boolean; interruptedBy?: string | undefined } = { color: false }): string {
  const chalk = makeChalk(opts.color);
  const { done, failed, notStarted } = report;
  const { interruptedBy } = opts;
  if (failed.length === 0 && notStarted.length === 0 && interruptedBy === undefined) {
    return chalk.bold.green(`Apply complete: ${done.length} done.`);
  }
  const how = interruptedBy !== undefined ? `Apply interrupted by ${interruptedBy}` : 'Apply failed';
  const lines = [chalk.bold.red(`${how}: ${done.length} done, ${failed.length} failed, ${notStarted.length} not started.`)];
  if (done.length > 0) lines.push('Done:', ...done.map((c) => changeLine(c, chalk)));
  if (failed.length > 0) lines.push('Failed:', ...failed.map((f) => `${changeLine(f.change, chalk)}: ${oneLine(f.error)}`));
  if (notStarted.length > 0) lines.push('Not started:', ...notStarted.map((c) => changeLine(c, chalk)));
  lines.push(
    interruptedBy !== undefined
      ? 'Nothing was rolled back. Run apply again: it picks up from the live state.'
      : 'Nothing was rolled back. Fix the cause and run apply again: it picks up from the live state.',
  );
  return lines.join('\n');
}

function changeLine(change: Change, chalk: ChalkInstance): string {
  return `  ${actionColor(chalk, change.action)(actionSymbol(change.action))} ${printableAddress(String(change.address))}`;
}

/** `12ms` below a second, `1.5s` above. */
function formatElapsed(ms: number): string {
  return ms < 1000 ? `${Math.round(ms)}ms` : `${(ms / 1000).toFixed(1)}s`;
}

/** Error messages stay on the line of their change: the one printer shows their line breaks as `\n`. */
function oneLine(text: string): string {
  return printable(text);
}
