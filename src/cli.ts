#!/usr/bin/env node
import { realpathSync } from 'node:fs';
import nodeModule from 'node:module';
import { homedir } from 'node:os';
import { fileURLToPath } from 'node:url';
import { Command } from 'commander';
import { registerApply } from './commands/apply.js';
import { registerCheck } from './commands/check.js';
import { addGlobalOptions } from './commands/common-options.js';
import { cliErrorOf } from './commands/errors.js';
import { Interruption } from './commands/interrupt.js';
import { registerExport } from './commands/export.js';
import { registerFmt } from './commands/fmt.js';
import { registerGraph } from './commands/graph.js';
import { registerLogComment } from './commands/log-comment.js';
import { endQuietlyWhenReadersLeave, processOutput, redacting, shortenLines, type Output, type OutputSink } from './commands/output.js';
import { enableCompileCache, type CompileCacheHost } from './core/compile-cache.js';
import { RedactionSet } from './core/redaction.js';
import { tuneV8ForShortRun } from './core/short-run-v8.js';
import { printable } from './core/text-escape.js';
import { registerPlan } from './commands/plan.js';
import { registerServe } from './commands/serve.js';
import { registerShow } from './commands/show.js';
import { registerValidate } from './commands/validate.js';
import { VERSION } from './version.js';

/**
 * The CLI. Every command reports failure as one plain line (`error: ...`) and an exit code
 * (contract section 3): never a stack trace, never a secret. `redaction`: the run's set of
 * secrets, which commands add to as they learn them (the entry's last-resort handler uses it too).
 */
export async function main(argv: string[], sink?: OutputSink, redaction: RedactionSet = new RedactionSet(), interruption?: Interruption): Promise<number> {
  quietDependencyNotices();
  let exitCode = 0;
  const program = new Command('lockstep')
    .description('Keep a secrets service in lock step with YAML manifests kept in git.')
    .version(VERSION);
  addGlobalOptions(program)
    .showHelpAfterError()
    .exitOverride();
  // One redaction set per run, shared by every output the run makes (see redacting()).
  let output: Output | undefined;
  const out = (): Output => {
    if (output) return output;
    const printer = redacting(sink ?? processOutput({ color: program.opts<{ color?: boolean }>().color }), redaction);
    interruption?.useOutput(printer);
    output = interruption ? mutedWhenAbandoned(printer, interruption) : printer;
    return output;
  };
  const exit = (code: number): void => {
    exitCode = code;
  };
  registerValidate(program, out, exit);
  registerPlan(program, out, exit, interruption);
  registerShow(program, out, exit);
  registerApply(program, out, exit, interruption);
  registerExport(program, out, exit, interruption);
  registerCheck(program, out, exit, interruption);
  registerGraph(program, out, exit, interruption);
  registerFmt(program, out, exit);
  registerLogComment(program, out, exit);
  registerServe(program);
  // SIGINT and SIGTERM end a command through its report (interrupt.ts); serve has its own handling.
  program.hook('preAction', (_program, action) => {
    if (action.name() !== 'serve') {
      out();
      interruption?.arm();
    }
  });

  try {
    await program.parseAsync(argv, { from: 'user' });
    return exitCode;
  } catch (err) {
    return reportError(err, out());
  } finally {
    interruption?.disarm();
  }
}

/** What an abandoned command would still print is dropped (Interruption.mutes). */
function mutedWhenAbandoned(output: Output, interruption: Interruption): Output {
  return {
    ...output,
    out: (t) => (interruption.mutes ? undefined : output.out(t)),
    err: (t) => (interruption.mutes ? undefined : output.err(t)),
  };
}

/**
 * The AWS SDK prints a multi-line notice on Node 20 (its releases after early 2027 need Node 22)
 * into lockstep's stderr, where scripts read lockstep's own diagnostics. It speaks to whoever
 * picks the SDK's version, which lockstep's lockfile does: docs/ci.md says so instead. A user
 * who sets the variable either way keeps their choice.
 */
function quietDependencyNotices(): void {
  process.env['AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED'] ??= 'true';
}

function reportError(err: unknown, output: Output): number {
  const e = err as { code?: string; exitCode?: number; message?: string };
  if (typeof e?.code === 'string' && e.code.startsWith('commander.')) {
    // help and version exit 0; usage errors were already printed by commander.
    return e.code === 'commander.helpDisplayed' || e.code === 'commander.version' || e.code === 'commander.help' ? 0 : 1;
  }
  // A message may quote a server's answer (a mount's type, an error text) or a manifest: each of
  // its lines through the one printer, so what it quotes can neither start a line nor reach the terminal raw.
  const error = cliErrorOf(err);
  output.err(error.lines.map((line, i) => (i === 0 ? `error: ${printable(line)}` : printable(line))).join('\n'));
  return error.exitCode;
}

/** The flags node was given, on its command line or in NODE_OPTIONS. */
export function nodeFlags(): string[] {
  return [...process.execArgv, ...(process.env['NODE_OPTIONS'] ?? '').split(/\s+/).filter(Boolean)];
}

export { tuneV8ForShortRun };

/**
 * Is this module the program Node was started with (rather than imported by a test or another
 * program)? Compared by real path: npm's bin link is a symbolic link to this file, and a URL
 * built from a path by hand reads a `#` in a folder's name as a fragment and `%41` as an escape
 * (installed under such a folder, lockstep printed nothing and exited 0).
 */
function isProgramEntry(): boolean {
  const started = process.argv[1];
  if (!started) return false;
  try {
    return realpathSync(started) === realpathSync(fileURLToPath(import.meta.url));
  } catch {
    return false;
  }
}

/**
 * What fails outside every command's own handling (a bug, a stray rejection) is still one line,
 * with the run's secrets redacted and control characters shown escaped: never a stack trace.
 */
function lastResort(redaction: RedactionSet): (err: unknown) => void {
  return (err) => {
    const message = err instanceof Error ? err.message : String(err);
    // One line: a line feed in it could start a line another program reads (`::error::` in CI).
    const line = shortenLines(printable(redaction.redact(message)).replaceAll('\n', '\\n'));
    if (process.stderr.writable) process.stderr.write(`error: ${line}\n`);
    process.exitCode = 1;
  };
}

if (isProgramEntry()) {
  // Node 22.1+: the next run skips compiling the chunks and packages loaded after this.
  enableCompileCache(nodeModule as CompileCacheHost, process.env, homedir);
  tuneV8ForShortRun(nodeFlags());
  const redaction = new RedactionSet();
  const fail = lastResort(redaction);
  endQuietlyWhenReadersLeave(fail);
  for (const event of ['uncaughtException', 'unhandledRejection'] as const) {
    process.on(event, (err: unknown) => {
      fail(err);
      process.exit(1);
    });
  }
  const interruption = new Interruption(process, (code) => process.exit(code));
  main(process.argv.slice(2), undefined, redaction, interruption).then((code) => {
    // A failure to write the output (a full disk) already made it 1.
    process.exitCode = process.exitCode === 1 ? 1 : code;
  }, fail);
}
