/**
 * `serve --latency MS` and `serve --rate-limit N`: a rehearsal of a server far away, and of its
 * rate-limit quota, so a plan can be tried at its production distance before it is run.
 *
 * Latency: every answer leaves MS after the request arrived (before it is handled), the 429s
 * included: a request crossing a network both ways.
 *
 * Rate limit: at most N admitted requests at once, counted from arrival until their answer has
 * gone (the latency included: a slot is held as long as the client waits). Beyond that the
 * answer is the quota's (vault/quotas/quotas_rate_limit.go, http/util.go rateLimitQuotaWrapping):
 * 429, `{"errors": ["request path \"PATH\": rate limit quota exceeded"]}`, and the headers the
 * service adds when `enable_rate_limit_response_headers` is on: Retry-After (whole seconds until
 * the quota frees, truncated as the service's `int(time.Until(reset).Seconds())` does) and
 * X-Ratelimit-Limit / -Remaining / -Reset. The service's rate limits count requests per
 * interval; the emulator counts requests in flight, the limit a client's concurrency meets.
 */

/**
 * Paths no rate limit applies to: the service's default exempt paths
 * (vault/quotas/quotas.go, defaultExemptPaths).
 */
const EXEMPT_PATHS = new Set([
  'sys/generate-recovery-token/attempt',
  'sys/generate-recovery-token/update',
  'sys/generate-root/attempt',
  'sys/generate-root/update',
  'sys/health',
  'sys/seal-status',
  'sys/unseal',
]);

export interface DistanceOptions {
  /** Milliseconds added to every answer (0: none). */
  latencyMs: number;
  /** Requests in flight at most (undefined: no limit). */
  rateLimit?: number;
  /** Waits `ms`; tests inject their own. */
  wait?: (ms: number) => Promise<void>;
}

export type Admission =
  /** Admitted: `release()` once its answer has gone (called once; later calls do nothing). */
  | { kind: 'admitted'; release: () => void }
  | { kind: 'refused'; status: 429; errors: string[]; headers: Record<string, string> };

const NO_SLOT: Admission = Object.freeze({ kind: 'admitted', release: () => undefined });

export class Distance {
  readonly latencyMs: number;
  readonly rateLimit: number | undefined;
  readonly #wait: (ms: number) => Promise<void>;
  #inFlight = 0;
  #refused = 0;

  constructor(opts: DistanceOptions) {
    if (!Number.isInteger(opts.latencyMs) || opts.latencyMs < 0) throw new RangeError(`latency must be a whole number of ms, got ${opts.latencyMs}`);
    if (opts.rateLimit !== undefined && (!Number.isInteger(opts.rateLimit) || opts.rateLimit < 1)) {
      throw new RangeError(`a rate limit must be a positive whole number, got ${opts.rateLimit}`);
    }
    this.latencyMs = opts.latencyMs;
    this.rateLimit = opts.rateLimit;
    this.#wait = opts.wait ?? ((ms) => new Promise((resolve) => setTimeout(resolve, ms)));
  }

  /** Admitted requests whose answer has not gone yet. */
  get inFlight(): number {
    return this.#inFlight;
  }

  /** Requests answered 429 so far. */
  get refused(): number {
    return this.#refused;
  }

  /** Takes a slot for a request to `path` (canonical, after /v1/), or says why not. */
  admit(path: string): Admission {
    if (this.rateLimit === undefined || EXEMPT_PATHS.has(path)) return NO_SLOT;
    if (this.#inFlight >= this.rateLimit) {
      this.#refused++;
      // Every admitted answer is due within one latency: the quota frees by then.
      const reset = String(Math.trunc(this.latencyMs / 1000));
      return {
        kind: 'refused',
        status: 429,
        errors: [`request path ${JSON.stringify(path)}: rate limit quota exceeded`],
        headers: { 'Retry-After': reset, 'X-Ratelimit-Limit': String(this.rateLimit), 'X-Ratelimit-Remaining': '0', 'X-Ratelimit-Reset': reset },
      };
    }
    this.#inFlight++;
    let released = false;
    return {
      kind: 'admitted',
      release: () => {
        if (released) return;
        released = true;
        this.#inFlight--;
      },
    };
  }

  /** The way there and back: resolves after the latency. */
  travel(): Promise<void> {
    return this.#wait(this.latencyMs);
  }
}
