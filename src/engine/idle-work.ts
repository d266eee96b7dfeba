/**
 * Work the engine can do while its reads are in flight (comparing each object as its answer
 * comes), run in short slices between the event loop's turns (setImmediate: after the answers
 * that are in, before the next wait for more). Answers are taken and the next requests sent
 * between two slices, so a server is never kept waiting long; the process, which would
 * otherwise sit idle while the server works, does part of what it did after the last answer.
 * Against a remote or slow server that part is then free.
 *
 * Tasks run in the order they were added. `finish` runs what is left at once (the reads are
 * over: nothing to wait for) and throws the first error a task threw.
 */
export class IdleWork {
  readonly #tasks: Array<(() => void) | undefined> = [];
  #next = 0;
  #scheduled = false;
  #failure: { error: unknown } | undefined;
  readonly #sliceMs: number;
  readonly #now: () => number;
  readonly #schedule: (run: () => void) => void;

  constructor(opts: IdleWorkOptions = {}) {
    this.#sliceMs = opts.sliceMs ?? SLICE_MS;
    this.#now = opts.now ?? (() => performance.now());
    this.#schedule = opts.schedule ?? ((run) => void setImmediate(run));
  }

  add(task: () => void): void {
    this.#tasks.push(task);
    this.#wake();
  }

  /** Runs every task left, now; throws the first error any task threw. */
  finish(): void {
    while (this.#next < this.#tasks.length) this.#runOne();
    this.#reset();
    if (this.#failure) throw this.#failure.error;
  }

  #wake(): void {
    if (this.#scheduled || this.#next >= this.#tasks.length) return;
    this.#scheduled = true;
    this.#schedule(this.#slice);
  }

  readonly #slice = (): void => {
    this.#scheduled = false;
    const end = this.#now() + this.#sliceMs;
    // The clock is read every few tasks: a task is a few microseconds, a clock read not much less.
    while (this.#next < this.#tasks.length) {
      this.#runOne();
      if (this.#next % TASKS_PER_CLOCK_READ === 0 && this.#now() >= end) break;
    }
    if (this.#next >= this.#tasks.length) this.#reset();
    this.#wake();
  };

  #runOne(): void {
    const task = this.#tasks[this.#next];
    this.#tasks[this.#next++] = undefined;
    try {
      task?.();
    } catch (error) {
      this.#failure ??= { error };
    }
  }

  #reset(): void {
    this.#tasks.length = 0;
    this.#next = 0;
  }
}

export interface IdleWorkOptions {
  /** How long a slice may run before the loop takes the answers that came meanwhile (ms). */
  sliceMs?: number;
  now?: () => number;
  /** Runs a slice later (default: setImmediate). */
  schedule?: (run: () => void) => void;
}

/**
 * A millisecond: at 16 requests in flight and a tenth of a millisecond of server work each
 * (`serve` on loopback), the server still has work queued when a slice ends.
 */
const SLICE_MS = 1;
const TASKS_PER_CLOCK_READ = 16;
