#!/usr/bin/env node
import nodeModule from 'node:module';
import { Command } from 'commander';
import { registerApply } from './commands/apply.js';
import { registerCheck } from './commands/check.js';
import { addGlobalOptions } from './commands/common-options.js';
import { cliErrorOf } from './commands/errors.js';
import { registerExport } from './commands/export.js';
import { registerGraph } from './commands/graph.js';
import { registerLogComment } from './commands/log-comment.js';
import { processOutput, redacting, type Output, type OutputSink } from './commands/output.js';
import { RedactionSet } from './core/redaction.js';
import { printable } from './core/text-escape.js';
import { registerPlan } from './commands/plan.js';
import { registerServe } from './commands/serve.js';
import { registerShow } from './commands/show.js';
import { registerValidate } from './commands/validate.js';
import { VERSION } from './version.js';

/**
 * The CLI. Every command reports failure as one plain line (`error: ...`) and an exit code
 * (contract section 3): never a stack trace, never a secret.
 */
export async function main(argv: string[], sink?: OutputSink): Promise<number> {
  quietDependencyNotices();
  let exitCode = 0;
  const program = new Command('lockstep')
    .description('Keep a secrets service in lock step with YAML manifests kept in git.')
    .version(VERSION);
  addGlobalOptions(program)
    .showHelpAfterError()
    .exitOverride();
  // One redaction set per run, shared by every output the run makes (see redacting()).
  const redaction = new RedactionSet();
  let output: Output | undefined;
  const out = (): Output => (output ??= redacting(sink ?? processOutput({ color: program.opts<{ color?: boolean }>().color }), redaction));
  const exit = (code: number): void => {
    exitCode = code;
  };
  registerValidate(program, out, exit);
  registerPlan(program, out, exit);
  registerShow(program, out, exit);
  registerApply(program, out, exit);
  registerExport(program, out, exit);
  registerCheck(program, out, exit);
  registerGraph(program, out, exit);
  registerLogComment(program, out, exit);
  registerServe(program);

  try {
    await program.parseAsync(argv, { from: 'user' });
    return exitCode;
  } catch (err) {
    return reportError(err, out());
  }
}

/**
 * The AWS SDK prints a multi-line notice on Node 20 (its releases after early 2027 need Node 22)
 * into lockstep's stderr, where scripts read lockstep's own diagnostics. It speaks to whoever
 * picks the SDK's version, which lockstep's lockfile does: the README says so instead. A user
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

/**
 * Node 22.1+ keeps the compiled code of the modules loaded after this (the chunks a command
 * loads, the SDKs and parsers) in a cache on disk, so the next run skips compiling them. Node
 * 20 has no such cache: there it is a no-op. NODE_DISABLE_COMPILE_CACHE=1 turns it off.
 */
function enableCompileCache(): void {
  try {
    (nodeModule as { enableCompileCache?: () => unknown }).enableCompileCache?.();
  } catch {
    // A cache directory that cannot be written only costs speed.
  }
}

const isEntry = process.argv[1] && import.meta.url === new URL(`file://${process.argv[1]}`).href;
if (isEntry || process.argv[1]?.endsWith('/lockstep')) {
  enableCompileCache();
  main(process.argv.slice(2)).then(
    (code) => {
      process.exitCode = code;
    },
    (err: unknown) => {
      process.stderr.write(`error: ${err instanceof Error ? err.message : String(err)}\n`);
      process.exitCode = 1;
    },
  );
}
