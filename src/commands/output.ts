/** Where a command writes, and whether it may colour. Tests pass their own. */
export interface Output {
  out(text: string): void;
  err(text: string): void;
  color: boolean;
  /** Is standard input a terminal (apply may ask for approval)? */
  interactive: boolean;
  /** Reads one line of input (approval). */
  prompt(question: string): Promise<string>;
}

export function processOutput(opts: { color?: boolean }): Output {
  const noColorEnv = process.env['NO_COLOR'] !== undefined && process.env['NO_COLOR'] !== '';
  return {
    out: (t) => process.stdout.write(t.endsWith('\n') ? t : t + '\n'),
    err: (t) => process.stderr.write(t.endsWith('\n') ? t : t + '\n'),
    color: opts.color !== false && !noColorEnv && process.stdout.isTTY === true,
    interactive: process.stdin.isTTY === true,
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
