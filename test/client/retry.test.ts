import { describe, expect, it } from 'vitest';
import { backoffDelay, DEFAULT_BACKOFF, isRetryableStatus, parseRetryAfter, retryDelay } from '../../src/client/retry.js';

describe('retry policy', () => {
  it('retries throttling and transient server errors only', () => {
    for (const s of [429, 500, 502, 503, 504]) expect(isRetryableStatus(s)).toBe(true);
    for (const s of [200, 400, 403, 404, 405, 501]) expect(isRetryableStatus(s)).toBe(false);
  });

  it('backs off exponentially with full jitter, capped', () => {
    expect(backoffDelay(0, DEFAULT_BACKOFF, () => 0.999)).toBe(99);
    expect(backoffDelay(1, DEFAULT_BACKOFF, () => 0.999)).toBe(199);
    expect(backoffDelay(3, DEFAULT_BACKOFF, () => 0.5)).toBe(400);
    expect(backoffDelay(10, DEFAULT_BACKOFF, () => 0.999)).toBe(1998);
    expect(backoffDelay(1000, DEFAULT_BACKOFF, () => 0.999)).toBe(1998);
    expect(backoffDelay(5, DEFAULT_BACKOFF, () => 0)).toBe(0);
  });

  it('reads Retry-After as seconds or an HTTP date, capped', () => {
    const now = Date.parse('2025-01-01T00:00:00Z');
    expect(parseRetryAfter('2', 10_000, now)).toBe(2000);
    expect(parseRetryAfter(' 0 ', 10_000, now)).toBe(0);
    expect(parseRetryAfter('3600', 10_000, now)).toBe(10_000);
    expect(parseRetryAfter('Wed, 01 Jan 2025 00:00:05 GMT', 10_000, now)).toBe(5000);
    expect(parseRetryAfter('Tue, 31 Dec 2024 23:00:00 GMT', 10_000, now)).toBe(0);
    expect(parseRetryAfter(undefined, 10_000, now)).toBeUndefined();
    expect(parseRetryAfter('soon', 10_000, now)).toBeUndefined();
    expect(parseRetryAfter('-1', 10_000, now)).toBeUndefined();
  });

  it('#16.2: waits the server\'s Retry-After, but never less than the backoff (Retry-After: 0 is not "all at once")', () => {
    expect(retryDelay(1000, 0, DEFAULT_BACKOFF, () => 0.5)).toBe(1000);
    expect(retryDelay(0, 2, DEFAULT_BACKOFF, () => 0.5)).toBe(200);
    expect(retryDelay(undefined, 1, DEFAULT_BACKOFF, () => 0.999)).toBe(199);
  });
});
