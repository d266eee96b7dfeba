import type { Change } from '../core/plan.js';

export type ApplyEvent =
  | { type: 'start'; change: Change }
  | { type: 'done'; change: Change; elapsedMs: number }
  | { type: 'failed'; change: Change; error: string; elapsedMs: number };

export interface ApplyOutcome {
  done: Change[];
  failed: Array<{ change: Change; error: string }>;
  notStarted: Change[];
}

export interface RunOptions {
  /**
   * How many changes may run at once: a number, or a function read each time one may start
   * (the clients' adaptive limits move while an apply runs), given the clusters that still
   * have changes to start: a cluster whose changes have all started asks for no more.
   */
  concurrency: number | ((clustersWithPending: ReadonlySet<string>) => number);
  onEvent?: (e: ApplyEvent) => void;
  /** Turns an execution error into a one-line, secret-free message. */
  describeError: (err: unknown) => string;
  /**
   * Aborted (a SIGINT or SIGTERM): as after a failure, nothing new starts and the changes
   * running end; the outcome says which were done and which never started.
   */
  stop?: AbortSignal;
}

type Status = 'pending' | 'running' | 'done' | 'failed';

/**
 * Runs ordered changes: each starts once every change it depends on is done, at most
 * `concurrency` at a time. After the first failure nothing new starts; running changes end;
 * the outcome says what was done, what failed and what never started (each in plan order).
 * `opts.stop` stops it the same way.
 * Linear in the number of changes and dependencies: a count of unmet dependencies per change
 * and a queue of those ready (Kahn's algorithm), so 10,000 changes cost no more per change than 10.
 */
export async function runChanges(
  changes: readonly Change[],
  execute: (change: Change) => Promise<void>,
  opts: RunOptions,
): Promise<ApplyOutcome> {
  const indexOf = new Map<string, number>(changes.map((c, i) => [c.address.toString(), i]));
  const status: Status[] = changes.map(() => 'pending');
  const errors = new Map<number, string>();
  const unmet = changes.map(() => 0);
  const dependents: number[][] = changes.map(() => []);
  changes.forEach((c, i) => {
    for (const d of c.dependsOn) {
      const j = indexOf.get(d.toString());
      // A dependency outside the plan is an object that already exists.
      if (j === undefined || j === i) continue;
      unmet[i]!++;
      dependents[j]!.push(i);
    }
  });
  const ready: number[] = [];
  unmet.forEach((n, i) => n === 0 && ready.push(i));
  let readAt = 0;
  let running = 0;
  let stopped = false;
  // Per cluster, its changes not started yet; a cluster leaves the set when the last one starts.
  const notStarted = new Map<string, number>();
  for (const c of changes) notStarted.set(c.address.cluster, (notStarted.get(c.address.cluster) ?? 0) + 1);
  const withPending = new Set(notStarted.keys());

  return new Promise<ApplyOutcome>((resolve) => {
    const finish = (): void =>
      resolve({
        done: changes.filter((_, i) => status[i] === 'done'),
        failed: changes.flatMap((change, i) => (status[i] === 'failed' ? [{ change, error: errors.get(i)! }] : [])),
        notStarted: changes.filter((_, i) => status[i] === 'pending'),
      });
    const { concurrency } = opts;
    const limit = typeof concurrency === 'number' ? (): number => concurrency : (): number => Math.max(1, concurrency(withPending));
    opts.stop?.addEventListener('abort', () => {
      stopped = true;
      if (running === 0) finish();
    });
    if (opts.stop?.aborted) stopped = true;
    const pump = (): void => {
      while (!stopped && running < limit() && readAt < ready.length) start(ready[readAt++]!);
      if (running === 0) finish();
    };
    const start = (i: number): void => {
      const c = changes[i]!;
      status[i] = 'running';
      running++;
      const left = notStarted.get(c.address.cluster)! - 1; // counted above, for every change
      notStarted.set(c.address.cluster, left);
      if (left === 0) withPending.delete(c.address.cluster);
      const t0 = performance.now();
      opts.onEvent?.({ type: 'start', change: c });
      execute(c)
        .then(
          () => {
            status[i] = 'done';
            opts.onEvent?.({ type: 'done', change: c, elapsedMs: performance.now() - t0 });
            for (const k of dependents[i]!) if (--unmet[k]! === 0) ready.push(k);
          },
          (err: unknown) => {
            const error = opts.describeError(err);
            status[i] = 'failed';
            errors.set(i, error);
            stopped = true;
            opts.onEvent?.({ type: 'failed', change: c, error, elapsedMs: performance.now() - t0 });
          },
        )
        .finally(() => {
          running--;
          pump();
        });
    };
    pump();
  });
}
