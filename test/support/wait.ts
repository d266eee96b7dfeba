/** Waiting in tests for something another process or a timer does. */

/**
 * Calls `check` until it returns something other than undefined or false and returns that;
 * fails naming `what` once `timeoutMs` has passed.
 */
export async function pollUntil<T>(
  what: string,
  check: () => Promise<T | undefined | false> | T | undefined | false,
  opts: { timeoutMs: number; intervalMs: number },
): Promise<T> {
  const deadline = Date.now() + opts.timeoutMs;
  for (;;) {
    const value = await check();
    if (value !== undefined && value !== false) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, opts.intervalMs));
  }
}
