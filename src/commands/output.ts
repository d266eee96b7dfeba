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
    err: (t) => sink.err(redaction.redact(t)),
    ...(sink.status ? { status: (t: string) => sink.status!(redaction.redact(t)) } : {}),
  };
}

export function processOutput(opts: { color?: boolean }): OutputSink {
  const noColorEnv = process.env['NO_COLOR'] !== undefined && process.env['NO_COLOR'] !== '';
  return {
    out: (t) => process.stdout.write(t.endsWith('\n') ? t : t + '\n'),
    err: (t) => process.stderr.write(t.endsWith('\n') ? t : t + '\n'),
    color: opts.color !== false && !noColorEnv && process.stdout.isTTY === true,
    interactive: process.stdin.isTTY === true,
    // Carriage return, then erase the line: the status overwrites itself in place.
    ...(process.stderr.isTTY === true ? { status: (t: string) => process.stderr.write(`\r\u001b[K${t}`) } : {}),
    prompt: async (question) => {
      const { createInterface } = await import('node:readline/promises');
      const rl = createInterface({ input: process.stdin, output: process.stdout });
      try {
        return await rl.question(question);
      } finally {
        rl.close();
      }
    },
  };
}
