/**
 * How many requests a client keeps in flight to one cluster (`--concurrency`): a fixed number,
 * or by default a limit that finds the server's pace by itself.
 *
 * The adaptive limit follows TCP's congestion control as Netflix's concurrency-limits applies it
 * to requests (Vegas and Gradient): latency without queueing is the fastest round trip seen; a
 * window of answers (about one limit's worth, all sent under the current limit) either shows the
 * same latency, and the limit grows (by half again at first, "slow start", then by a little), or
 * shows a queue (its median answer took more than TOLERANCE times that), and the limit
 * shrinks by the same ratio (at most by half, and by latency alone not below where it started). A refusal (429, 503) or a request that timed out
 * is the server saying too much: the limit falls at once below the number that was in flight
 * when the refused request went, once per window, and that number becomes a ceiling the limit
 * then only probes past slowly, so a server's quota is met with few refusals.
 */

/** What one exchange says about the server's pace. */
export type Outcome =
  /** Answered (whatever the status, except those below): its round trip is a latency sample. */
  | 'ok'
  /** 429, 503 or a timeout: the server (or the way to it) has too much. */
  | 'dropped'
  /** Failed in a way that says nothing of load (a refused connection, TLS): not counted. */
  | 'ignored';

export interface Sample {
  /** When the request went (ms, the algorithm's clock). */
  startedAt: number;
  /** When its answer was whole (ms). */
  endedAt: number;
  /** Requests in flight to the cluster when it went, itself included. */
  inFlight: number;
  outcome: Outcome;
}

export interface LimitAlgorithm {
  /** Requests that may be in flight now. */
  readonly limit: number;
  /** The most it will ever allow: what callers size their queues and connection pools by. */
  readonly max: number;
  onSample(sample: Sample): void;
}

export class FixedLimit implements LimitAlgorithm {
  constructor(readonly limit: number) {
    if (!Number.isInteger(limit) || limit < 1) throw new RangeError(`concurrency must be a positive integer, got ${limit}`);
  }

  get max(): number {
    return this.limit;
  }

  onSample(): void {}
}

export interface AdaptiveLimitOptions {
  /** Default 16: today's fixed number, where every run starts. */
  initial?: number;
  /** Default 1. */
  min?: number;
  /** Default 256. */
  max?: number;
}

/** Where an adaptive limit starts: the fixed number of before. */
const INITIAL_AUTO_LIMIT = 16;

/** A window whose median answer took more than this times the baseline shows a queue. */
const TOLERANCE = 2;
/** Answers a window needs at least, however low the limit. */
const MIN_WINDOW = 8;
/** After a refusal the limit goes to this share of what was in flight then. */
const BACKOFF = 0.9;
/** Windows between probes past a ceiling learnt from a refusal. */
const PROBE_EVERY = 8;

export class AdaptiveLimit implements LimitAlgorithm {
  readonly min: number;
  readonly max: number;
  /** Latency alone takes the limit no lower than this: where it started. */
  readonly #latencyFloor: number;
  #limit: number;
  #slowStart = true;
  /** The fastest round trip seen: the round trip without queueing. */
  #baseline = Infinity;
  /** Highest in flight known to pass after a refusal; Infinity before any. */
  #ceiling = Infinity;
  #windowsAtCeiling = 0;
  // The current window: answers to requests sent since it opened.
  #windowOpenedAt = -Infinity;
  #windowRtts: number[] = [];
  #windowPeak = 0;
  /** The first window has passed (see #decide). */
  #warmedUp = false;

  constructor(opts: AdaptiveLimitOptions = {}) {
    this.min = opts.min ?? 1;
    this.max = opts.max ?? 256;
    const initial = opts.initial ?? INITIAL_AUTO_LIMIT;
    if (!(Number.isInteger(this.min) && this.min >= 1 && this.max >= this.min && initial >= this.min && initial <= this.max)) {
      throw new RangeError(`an adaptive limit needs 1 <= min <= initial <= max, got ${this.min}, ${initial}, ${this.max}`);
    }
    this.#limit = initial;
    this.#latencyFloor = initial;
  }

  get limit(): number {
    return Math.floor(this.#limit);
  }

  onSample(s: Sample): void {
    // An answer to a request sent under an earlier limit says nothing of this one.
    if (s.startedAt < this.#windowOpenedAt || s.outcome === 'ignored') return;
    if (s.outcome === 'dropped') return this.#backOff(s);
    const rtt = s.endedAt - s.startedAt;
    this.#windowRtts.push(rtt);
    if (rtt < this.#baseline) this.#baseline = rtt;
    this.#windowPeak = Math.max(this.#windowPeak, s.inFlight);
    if (this.#windowRtts.length >= Math.max(MIN_WINDOW, this.limit)) this.#decide(s.endedAt);
  }

  #decide(now: number): void {
    if (!this.#warmedUp) {
      // The first window's requests each opened their connection: a cost alike for all of them
      // (on loopback ten times a request's own work) that hides the queue behind it, so that
      // window passed for a server keeping pace and the limit grew where it should not. It sets
      // the baseline; decisions start with the next window, one round trip later.
      this.#warmedUp = true;
      this.#openWindow(now);
      return;
    }
    // The window's median: a pause of the client's own (a garbage collection) moves it less
    // than the mean. Against a server answering one request at a time (loopback) it grows with
    // every request in flight; against a distant one it stays the distance until the server
    // (or the client itself) has more than it can do.
    const rtts = this.#windowRtts.sort((a, b) => a - b);
    const median = rtts[rtts.length >> 1]!;
    const ratio = median / Math.max(this.#baseline, 1e-3);
    if (ratio > TOLERANCE) {
      // A queue: down by the ratio the latency went up by, at most by half, but by latency alone
      // never below where it started. On loopback every request more waits behind the others
      // (the latency grows with the number in flight from the first), and there 16 in flight
      // measured faster than fewer (bench:distance at 0 ms); a server that has too much says so
      // (429, 503), and that alone takes the limit lower.
      this.#slowStart = false;
      this.#set(Math.max(this.#latencyFloor, this.#limit * Math.max(0.5, TOLERANCE / ratio)), now);
    } else if (this.#windowPeak * 2 < this.limit) {
      // The caller had less to send than the limit allows: nothing learnt about more.
      this.#openWindow(now);
    } else if (this.#limit + 1 > this.#ceiling) {
      // At the ceiling a refusal taught: past it by one now and then.
      if (++this.#windowsAtCeiling >= PROBE_EVERY) {
        this.#windowsAtCeiling = 0;
        this.#ceiling++;
        this.#set(this.#limit + 1, now);
      } else {
        this.#openWindow(now);
      }
    } else if (this.#slowStart) {
      // By half again rather than double: a quota met in slow start is overshot by less.
      this.#set(this.#limit * 1.5, now);
    } else {
      // Vegas's step: the more in flight, the larger, but slowly (log10).
      this.#set(Math.min(this.#ceiling, this.#limit + Math.max(1, Math.log10(this.#limit))), now);
    }
  }

  #backOff(s: Sample): void {
    // A refusal is a decision: the next window's connections are open, so it is no warm-up.
    this.#warmedUp = true;
    this.#slowStart = false;
    this.#ceiling = Math.max(this.min, s.inFlight - 1);
    this.#windowsAtCeiling = 0;
    this.#set(Math.min(this.#limit, s.inFlight) * BACKOFF, s.endedAt);
  }

  #set(limit: number, now: number): void {
    this.#limit = Math.min(this.max, Math.max(this.min, limit));
    this.#openWindow(now);
  }

  #openWindow(now: number): void {
    this.#windowOpenedAt = now;
    this.#windowRtts = [];
    this.#windowPeak = 0;
  }
}
