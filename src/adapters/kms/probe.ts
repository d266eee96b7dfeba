/** Step-by-step read-only probes behind KeyBackend.inspect(). */
import { firstLine } from './errors.js';
import type { BackendFinding } from './types.js';

class ProbeStopped extends Error {}

export class Probe {
  readonly findings: BackendFinding[] = [];

  constructor(private readonly describeError: (err: unknown) => string = firstLine) {}

  ok(subject: string, message: string): void {
    this.findings.push({ ok: true, subject, message });
  }

  /** Records a failing finding and ends the probe. */
  fail(subject: string, message: string): never {
    this.findings.push({ ok: false, subject, message });
    throw new ProbeStopped();
  }

  /**
   * Runs one step. Its result becomes an ok finding with message(result); a thrown error
   * becomes the failing finding and ends the probe.
   */
  async step<T>(subject: string, fn: () => T | Promise<T>, message: (value: T) => string): Promise<T> {
    const value = await this.attempt(subject, fn);
    this.ok(subject, message(value));
    return value;
  }

  /** Like step, but records nothing on success (the caller judges the result). */
  async attempt<T>(subject: string, fn: () => T | Promise<T>): Promise<T> {
    try {
      return await fn();
    } catch (err) {
      if (err instanceof ProbeStopped) throw err;
      // Errors often start with the same subject ("token "x": no such slot"); say it once.
      const message = this.describeError(err);
      return this.fail(subject, message.startsWith(`${subject}: `) ? message.slice(subject.length + 2) : message);
    }
  }
}

export async function runProbe(
  body: (probe: Probe) => Promise<void>,
  describeError?: (err: unknown) => string,
): Promise<BackendFinding[]> {
  const probe = new Probe(describeError);
  try {
    await body(probe);
  } catch (err) {
    if (!(err instanceof ProbeStopped)) probe.findings.push({ ok: false, subject: 'backend', message: (describeError ?? firstLine)(err) });
  }
  return probe.findings;
}
