import { RedactionSet } from '../core/redaction.js';

/** Where a command writes, and whether it may colour. Tests pass their own (see redacting()). */
export interface OutputSink {
  out(text: string): void;
  err(text: string): void;
  color: boolean;
  /** Is standard input a terminal (apply may ask for approval)? */
  interactive: boolean;
  /** Reads one line of input (approval). */
  prompt(question: string): Promise<string>;
  /**
   * Replaces the transient status line ('' clears it). Absent unless stderr is a terminal: a
   * status line is for people watching, never for what scripts read.
   */
  status?: (text: string) => void;
}

/**
 * What commands write to: a sink whose every line passes through the run's redaction set, so
 * whatever reaches the terminal (a plan, an error, a server's echo) carries no secret known to
 * the run. Commands add secrets to `redaction` as they learn them (contract section 5).
 */
export interface Output extends OutputSink {
  readonly redaction: RedactionSet;
}

export function redacting(sink: OutputSink, redaction: RedactionSet = new RedactionSet()): Output {
  return {
    ...sink,
    redaction,
    out: (t) => sink.out(redaction.redact(t)),
    err: (t) => sink.err(shortenLines(redaction.redact(t))),
    ...(sink.status ? { status: (t: string) => sink.status!(shortenLines(redaction.redact(t))) } : {}),
  };
}

/**
 * The most characters of one line of a diagnostic: a server's answer of megabytes quoted in an
 * error must not flood a CI log or a terminal. Plans (stdout) are never cut: they show values
 * whole, which is what they are for.
 */
export const MAX_DIAGNOSTIC_LINE = 4096;

/**
 * Each line of `text` cut at MAX_DIAGNOSTIC_LINE, saying how much was left out. Done after
 * redaction, on the text as printed: cut earlier, a secret split at the cut would leave a part
 * the redaction no longer recognises.
 */
export function shortenLines(text: string): string {
  if (text.length <= MAX_DIAGNOSTIC_LINE) return text;
  return text
    .split('\n')
    .map((line) => {
      if (line.length <= MAX_DIAGNOSTIC_LINE) return line;
      // Never half of a surrogate pair: it would print as U+FFFD.
      const end = isHighSurrogate(line.charCodeAt(MAX_DIAGNOSTIC_LINE - 1)) ? MAX_DIAGNOSTIC_LINE - 1 : MAX_DIAGNOSTIC_LINE;
      return `${line.slice(0, end)}... (${line.length - end} more characters not shown)`;
    })
    .join('\n');
}

function isHighSurrogate(code: number): boolean {
  return code >= 0xd800 && code <= 0xdbff;
}

/**
 * Prints one `--format json` document on stdout. Every string in it is redacted before it is
 * serialised (the line-wise redaction of out() then finds nothing), so no secret can show and
 * no redaction can break the document's syntax for `| jq`.
 */
export function printJson(output: Output, document: unknown): void {
  output.out(JSON.stringify(output.redaction.redactValue(document), null, 2));
}

/**
 * A reader that stops early (`lockstep plan | head -1`) closes the pipe: writing more fails with
 * EPIPE, which Node raises as an error that would end the process with a stack trace (before a
 * `plan --out` file was written). What is left to print is dropped instead; the run goes on to
 * its end (files written, changes applied) and exits with its own status. Any other failure to
 * write (a full disk) is reported to `fail`; on stderr, where it could not be reported, it only
 * sets the exit status.
 */
export function endQuietlyWhenReadersLeave(fail: (err: Error) => void): void {
  const readerLeft = (err: NodeJS.ErrnoException): boolean => err.code === 'EPIPE' || err.code === 'ERR_STREAM_DESTROYED';
  process.stdout.on('error', (err: NodeJS.ErrnoException) => {
    if (!readerLeft(err)) fail(new Error(`cannot write to standard output (${err.code ?? err.message})`));
  });
  process.stderr.on('error', (err: NodeJS.ErrnoException) => {
    if (!readerLeft(err)) process.exitCode = 1;
  });
}

/** Writes `text` as a line, unless the stream's reader has gone (see endQuietlyWhenReadersLeave). */
function writeLine(stream: NodeJS.WriteStream, text: string): void {
  if (!stream.destroyed) stream.write(text.endsWith('\n') ? text : text + '\n');
}

export function processOutput(opts: { color?: boolean }): OutputSink {
  const noColorEnv = process.env['NO_COLOR'] !== undefined && process.env['NO_COLOR'] !== '';
  return {
    out: (t) => writeLine(process.stdout, t),
    err: (t) => writeLine(process.stderr, t),
    color: opts.color !== false && !noColorEnv && process.stdout.isTTY === true,
    interactive: process.stdin.isTTY === true,
    // Carriage return, then erase the line: the status overwrites itself in place.
    ...(process.stderr.isTTY === true ? { status: (t: string) => process.stderr.write(`\r\u001b[K${t}`) } : {}),
    prompt: async (question) => {
      const { createInterface } = await import('node:readline/promises');
      const rl = createInterface({ input: process.stdin, output: process.stdout });
      // On a terminal readline reads Ctrl-C as a key: made the signal it means, so the run ends as on any SIGINT (interrupt.ts).
      rl.on('SIGINT', () => process.kill(process.pid, 'SIGINT'));
      try {
        return await rl.question(question);
      } finally {
        rl.close();
      }
    },
  };
}
