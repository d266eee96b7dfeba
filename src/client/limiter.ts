import { AdaptiveLimit, FixedLimit, type LimitAlgorithm, type Outcome } from './adaptive-limit.js';

/** `--concurrency`: `auto` (the default) or a fixed number, per cluster. */
export type ConcurrencySetting = { kind: 'auto' } | { kind: 'fixed'; size: number };

export const AUTO: ConcurrencySetting = Object.freeze({ kind: 'auto' });

/** How one limiter's run went, for the run's summary. */
export interface LimiterReport {
  setting: ConcurrencySetting;
  /** The limit at the end: the number an adaptive limit settled on. */
  limit: number;
  /** The most requests that were in flight at once. */
  peak: number;
  /** Exchanges that said "too much" (429, 503, timeouts). */
  dropped: number;
}

/**
 * Bounds the requests in flight to one cluster. Tasks start in the order they were submitted
 * (FIFO); the bound is the algorithm's limit at each start, so a limit that shrinks lets running
 * tasks end and starts no new ones until they have. Each task's round trip, with what it said
 * of the server's load (`outcomeOf`), feeds the algorithm.
 */
export class ConcurrencyLimiter {
  readonly setting: ConcurrencySetting;
  readonly #algorithm: LimitAlgorithm;
  readonly #now: () => number;
  #active = 0;
  #peak = 0;
  #dropped = 0;
  // A queue with a moving head: Array#shift is O(n), and a plan can queue thousands of reads.
  #queue: Array<Waiting | undefined> = [];
  #head = 0;

  /** A number is a fixed limit; `now` (ms, monotonic) is injected in tests. */
  constructor(setting: ConcurrencySetting | number, now: () => number = () => performance.now()) {
    this.setting = typeof setting === 'number' ? { kind: 'fixed', size: setting } : setting;
    this.#algorithm = this.setting.kind === 'auto' ? new AdaptiveLimit() : new FixedLimit(this.setting.size);
    this.#now = now;
  }

  /** Requests that may be in flight now. */
  get limit(): number {
    return this.#algorithm.limit;
  }

  /** The most that may ever be in flight: what queues and connection pools are sized by. */
  get size(): number {
    return this.#algorithm.max;
  }

  /**
   * How many calls a caller with much to send (a bulk reader, the applier) keeps going now: twice
   * the current limit, so an adaptive limit sees its limit used and may grow, but no queue of
   * hundreds in front of a limit of 16 (that queue made loopback runs 4-20% slower); never more
   * than the size. A fixed limit asks for itself.
   */
  get demand(): number {
    return Math.min(this.size, 2 * this.limit);
  }

  /** Tasks running now. */
  get active(): number {
    return this.#active;
  }

  /** Tasks waiting for a slot. */
  get pending(): number {
    return this.#queue.length - this.#head;
  }

  report(): LimiterReport {
    return { setting: this.setting, limit: this.limit, peak: this.#peak, dropped: this.#dropped };
  }

  /** Runs `fn` when a slot is free; `outcomeOf` says what its result tells of the server's load. */
  run<T>(fn: () => Promise<T>, outcomeOf: OutcomeOf<T> = answered): Promise<T> {
    if (this.#active < this.#algorithm.limit && this.pending === 0) {
      this.#active++;
      return this.#invoke(fn, outcomeOf);
    }
    return new Promise<T>((resolve, reject) => {
      this.#queue.push({ fn, outcomeOf: outcomeOf as OutcomeOf<unknown>, resolve: resolve as (v: unknown) => void, reject });
    });
  }

  /** Runs `fn` in a slot already taken; the slot is released when its promise settles. */
  #invoke<T>(fn: () => Promise<T>, outcomeOf: OutcomeOf<T>): Promise<T> {
    const startedAt = this.#now();
    const inFlight = this.#active;
    if (inFlight > this.#peak) this.#peak = inFlight;
    let p: Promise<T>;
    try {
      p = fn();
    } catch (err) {
      this.#settle(startedAt, inFlight, 'ignored');
      return Promise.reject(err);
    }
    p.then(
      (value) => this.#settle(startedAt, inFlight, outcomeOf(value, undefined)),
      (err: unknown) => this.#settle(startedAt, inFlight, outcomeOf(undefined, err)),
    );
    return p;
  }

  #settle(startedAt: number, inFlight: number, outcome: Outcome): void {
    if (outcome === 'dropped') this.#dropped++;
    this.#algorithm.onSample({ startedAt, endedAt: this.#now(), inFlight, outcome });
    this.#active--;
    while (this.#active < this.#algorithm.limit && this.#head < this.#queue.length) {
      const next = this.#queue[this.#head]!;
      this.#queue[this.#head++] = undefined;
      if (this.#head > 1024 && this.#head * 2 > this.#queue.length) {
        this.#queue = this.#queue.slice(this.#head);
        this.#head = 0;
      }
      this.#active++;
      this.#invoke(next.fn, next.outcomeOf).then(next.resolve, next.reject);
    }
  }
}

/** What a task's result says of the server's load: its value, or (value undefined) its error. */
export type OutcomeOf<T> = (value: T | undefined, error: unknown) => Outcome;

/** A task that settled, however, was answered. */
const answered: OutcomeOf<unknown> = (_value, error) => (error === undefined ? 'ok' : 'ignored');

interface Waiting {
  fn: () => Promise<unknown>;
  outcomeOf: OutcomeOf<unknown>;
  resolve: (value: unknown) => void;
  reject: (reason: unknown) => void;
}
