/**
 * The time a cluster lives by: the wall clock its timestamps and token lifetimes read, and the
 * timers its schedules wait on. `serve` uses the system's; tests hand `startServer` one they
 * move themselves (test/support/manual-clock.ts), so nothing waits on real time to pass.
 */

export interface Clock {
  /** Wall-clock time in milliseconds since the Unix epoch. */
  now(): number;
  /**
   * Calls `fire` once `ms` have passed (monotonic, like setTimeout: a change of the wall clock
   * does not move it). A promise `fire` returns is the work the timer started: a test clock
   * awaits it; it must not reject. Timers never keep the process alive.
   */
  setTimer(ms: number, fire: () => unknown): Timer;
}

export interface Timer {
  /** Idempotent; after it, `fire` is not called. */
  cancel(): void;
}

/** setTimeout fires at once beyond this (2^31-1 ms); longer waits are chained. */
const MAX_TIMEOUT_MS = 2_147_483_647;

/** The process's clock. Reads the globals at each call, so a test's fake timers apply too. */
export const systemClock: Clock = {
  now: () => Date.now(),
  setTimer(ms, fire) {
    let handle: NodeJS.Timeout | undefined;
    let cancelled = false;
    const wait = (remaining: number): void => {
      const step = Math.min(Math.max(0, remaining), MAX_TIMEOUT_MS);
      handle = setTimeout(() => {
        if (cancelled) return;
        if (remaining > step) wait(remaining - step);
        else void fire();
      }, step);
      handle.unref();
    };
    wait(ms);
    return {
      cancel: () => {
        cancelled = true;
        clearTimeout(handle);
      },
    };
  },
};
