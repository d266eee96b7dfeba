/**
 * An error that ends a command with a plain message (no stack) and an exit code. A message of
 * several lines is given as its lines: each is printed through printable(), so a line break
 * inside one (quoted from a manifest or a server) shows as `\n` and can never start a line.
 */
export class CliError extends Error {
  readonly lines: readonly string[];

  constructor(
    message: string | readonly string[],
    readonly exitCode: number = 1,
  ) {
    const lines = typeof message === 'string' ? [message] : message;
    super(lines.join('\n'));
    this.lines = lines;
  }
}

/** A CliError of any error: an AggregateError's errors are its lines (its message is their summary). */
export function cliErrorOf(err: unknown): CliError {
  if (err instanceof CliError) return err;
  if (err instanceof AggregateError && err.errors.length > 0) return new CliError(err.errors.map((e: unknown) => (e instanceof Error ? e.message : String(e))));
  return new CliError(err instanceof Error ? err.message : String(err));
}
