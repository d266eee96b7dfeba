/** Retry policy: which failures are worth another attempt, and how long to wait before it. */

export interface BackoffPolicy {
  /** First backoff ceiling in ms; doubles each attempt. */
  baseMs: number;
  /** Largest backoff ceiling in ms. */
  capMs: number;
  /** Largest wait a server's Retry-After may impose, in ms. */
  maxRetryAfterMs: number;
}

export const DEFAULT_BACKOFF: BackoffPolicy = { baseMs: 100, capMs: 2000, maxRetryAfterMs: 10_000 };

/** Throttled or a transient server/gateway failure. */
export function isRetryableStatus(status: number): boolean {
  return status === 429 || status === 500 || status === 502 || status === 503 || status === 504;
}

/**
 * "Full jitter" exponential backoff (AWS architecture blog): a uniform wait in
 * [0, min(cap, base * 2^attempt)], so many clients retrying at once spread out.
 * `attempt` is 0 for the first retry.
 */
export function backoffDelay(attempt: number, policy: BackoffPolicy, random: () => number = Math.random): number {
  const ceiling = Math.min(policy.capMs, policy.baseMs * 2 ** Math.min(attempt, 30));
  return Math.floor(random() * ceiling);
}

/**
 * The wait before retrying a throttled or failed call: the server's Retry-After when it gave
 * one, but never less than the jittered backoff. `Retry-After: 0` is what the service's rate-limit
 * quota sends below a second (it truncates); taken alone it would retry every refused call at
 * once, all together, and use up their attempts within milliseconds.
 */
export function retryDelay(retryAfterMs: number | undefined, attempt: number, policy: BackoffPolicy, random: () => number = Math.random): number {
  return Math.max(retryAfterMs ?? 0, backoffDelay(attempt, policy, random));
}

/**
 * Parses a Retry-After header: delta-seconds or an HTTP date. Returns ms to wait (0 for a date
 * in the past), capped at `maxMs`, or undefined when absent or unreadable.
 */
export function parseRetryAfter(header: string | undefined, maxMs: number, now: number = Date.now()): number | undefined {
  if (header === undefined) return undefined;
  const text = header.trim();
  if (text === '') return undefined;
  let ms: number;
  if (/^\d+$/.test(text)) {
    ms = Number(text) * 1000;
  } else if (/[A-Za-z]/.test(text)) {
    const at = Date.parse(text);
    if (Number.isNaN(at)) return undefined;
    ms = Math.max(0, at - now);
  } else {
    return undefined;
  }
  return Math.min(ms, maxMs);
}

export function sleep(ms: number): Promise<void> {
  return ms <= 0 ? Promise.resolve() : new Promise((resolve) => setTimeout(resolve, ms));
}
