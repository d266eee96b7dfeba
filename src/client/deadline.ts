import { codedError } from './errors.js';

/** Code of the error of a request cut short by the run's deadline. Never retried. */
export const DEADLINE_CODE = 'LOCKSTEP_DEADLINE';

/**
 * The total time a run (one command) may spend waiting on servers (`--timeout`): shared by every
 * client of the run, like the limiter. Each attempt's timer is the nearer of the request timeout
 * and what is left of this; a retry that would start after it is not made.
 */
export class RunDeadline {
  readonly totalMs: number;
  #endsAt: number;
  readonly #now: () => number;

  /** `now` is injected in tests; milliseconds on a monotonic clock. */
  constructor(totalMs: number, now: () => number = () => performance.now()) {
    if (!(totalMs > 0)) throw new RangeError(`a run deadline must be positive, got ${totalMs}`);
    this.totalMs = totalMs;
    this.#now = now;
    this.#endsAt = now() + totalMs;
  }

  remainingMs(): number {
    return Math.max(0, this.#endsAt - this.#now());
  }

  /** Waits for `answer` (a person at a prompt) without counting the time it takes. */
  async excluding<T>(answer: Promise<T>): Promise<T> {
    const started = this.#now();
    try {
      return await answer;
    } finally {
      this.#endsAt += this.#now() - started;
    }
  }

  /** The error of a request the deadline cut short. */
  reached(): Error {
    return codedError(`run deadline of ${formatMs(this.totalMs)} reached`, DEADLINE_CODE);
  }
}

/** `250ms`, `10s`, `1.5s`, `5m`, `1h30m`: how a limit is named in messages. */
export function formatMs(ms: number): string {
  if (ms < 1000) return `${Math.round(ms)}ms`;
  if (ms < 60_000) return `${Number((ms / 1000).toFixed(3))}s`;
  const totalSeconds = Math.round(ms / 1000);
  const h = Math.floor(totalSeconds / 3600);
  const m = Math.floor((totalSeconds % 3600) / 60);
  const s = totalSeconds % 60;
  return `${h ? `${h}h` : ''}${m ? `${m}m` : ''}${s ? `${s}s` : ''}`;
}
