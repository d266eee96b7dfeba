/** An error that ends a command with a plain message (no stack) and an exit code. */
export class CliError extends Error {
  constructor(
    message: string,
    readonly exitCode: number = 1,
  ) {
    super(message);
  }
}
