/**
 * Runs `fn` over `items` with at most `limit` calls in flight (a number, or a function read
 * each time a call may start, for a limit that moves as the client's adaptive one does), taking the next item as one ends,
 * and resolves when all are done (rejects with the first error; no new call starts after it).
 * Reading thousands of objects this way keeps `limit` promises alive instead of one per object:
 * fewer live objects for the garbage collector, and no long queue in the client's limiter.
 */
export function forEachBounded<T>(items: readonly T[], limit: number | (() => number), fn: (item: T) => Promise<void>): Promise<void> {
  const current = typeof limit === 'function' ? limit : (): number => limit;
  // Never a silent no-op: a bad limit would otherwise start nothing and resolve.
  const first = current();
  if (!Number.isInteger(first) || first < 1) return Promise.reject(new RangeError(`limit must be a positive integer, got ${first}`));
  return new Promise((resolve, reject) => {
    let next = 0;
    let running = 0;
    let failed = false;
    const pump = (): void => {
      while (!failed && running < Math.max(1, current()) && next < items.length) {
        running++;
        fn(items[next++]!).then(done, fail);
      }
      if (!failed && running === 0 && next >= items.length) resolve();
    };
    const done = (): void => {
      running--;
      pump();
    };
    const fail = (err: unknown): void => {
      running--;
      if (!failed) {
        failed = true;
        reject(err);
      }
    };
    pump();
  });
}
