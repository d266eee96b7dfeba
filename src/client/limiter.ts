/**
 * Bounded concurrency shared by every client of one command (`--concurrency`, default 16).
 * Tasks start in the order they were submitted (FIFO). A finishing task hands its slot
 * straight to the next waiting one, so `active` never exceeds `size`.
 */
export class ConcurrencyLimiter {
  readonly size: number;
  #active = 0;
  // A queue with a moving head: Array#shift is O(n), and a plan can queue thousands of reads.
  #queue: Array<Waiting | undefined> = [];
  #head = 0;
  readonly #release = (): void => this.#next();

  constructor(size: number) {
    if (!Number.isInteger(size) || size < 1) throw new RangeError(`concurrency must be a positive integer, got ${size}`);
    this.size = size;
  }

  /** Tasks running now. */
  get active(): number {
    return this.#active;
  }

  /** Tasks waiting for a slot. */
  get pending(): number {
    return this.#queue.length - this.#head;
  }

  run<T>(fn: () => Promise<T>): Promise<T> {
    if (this.#active < this.size) {
      this.#active++;
      return this.#invoke(fn);
    }
    return new Promise<T>((resolve, reject) => {
      this.#queue.push({ fn, resolve: resolve as (v: unknown) => void, reject });
    });
  }

  /** Runs `fn` in a slot already taken; the slot is released when its promise settles. */
  #invoke<T>(fn: () => Promise<T>): Promise<T> {
    let p: Promise<T>;
    try {
      p = fn();
    } catch (err) {
      this.#next();
      return Promise.reject(err);
    }
    // Plain callbacks rather than an async wrapper: this runs once per request (benchmarked path).
    p.then(this.#release, this.#release);
    return p;
  }

  #next(): void {
    if (this.#head < this.#queue.length) {
      const next = this.#queue[this.#head]!;
      this.#queue[this.#head++] = undefined;
      if (this.#head > 1024 && this.#head * 2 > this.#queue.length) {
        this.#queue = this.#queue.slice(this.#head);
        this.#head = 0;
      }
      // The slot passes straight to `next`: #active stays the same.
      this.#invoke(next.fn).then(next.resolve, next.reject);
    } else {
      this.#active--;
    }
  }
}

interface Waiting {
  fn: () => Promise<unknown>;
  resolve: (value: unknown) => void;
  reject: (reason: unknown) => void;
}
