import { AddressMap } from '../core/address.js';
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
  /** How many changes may run at once. */
  concurrency: number;
  onEvent?: (e: ApplyEvent) => void;
  /** Turns an execution error into a one-line, secret-free message. */
  describeError: (err: unknown) => string;
}

/**
 * Runs ordered changes: each starts once every change it depends on is done, at most
 * `concurrency` at a time. After the first failure nothing new starts; running changes end;
 * the outcome says what was done, what failed and what never started (in plan order).
 */
export async function runChanges(
  changes: readonly Change[],
  execute: (change: Change) => Promise<void>,
  opts: RunOptions,
): Promise<ApplyOutcome> {
  const status = new AddressMap<'pending' | 'running' | 'done' | 'failed'>();
  for (const c of changes) status.set(c.address, 'pending');
  const failed: ApplyOutcome['failed'] = [];
  let running = 0;
  let stopped = false;

  return new Promise<ApplyOutcome>((resolve) => {
    const finish = (): void => {
      resolve({
        done: changes.filter((c) => status.get(c.address) === 'done'),
        failed,
        notStarted: changes.filter((c) => status.get(c.address) === 'pending'),
      });
    };
    const ready = (c: Change): boolean =>
      status.get(c.address) === 'pending' && c.dependsOn.every((d) => !status.has(d) || status.get(d) === 'done');
    const pump = (): void => {
      if (!stopped) {
        for (const c of changes) {
          if (running >= opts.concurrency) break;
          if (ready(c)) start(c);
        }
      }
      if (running === 0) finish();
    };
    const start = (c: Change): void => {
      status.set(c.address, 'running');
      running++;
      const t0 = performance.now();
      opts.onEvent?.({ type: 'start', change: c });
      execute(c).then(
        () => {
          status.set(c.address, 'done');
          opts.onEvent?.({ type: 'done', change: c, elapsedMs: performance.now() - t0 });
        },
        (err: unknown) => {
          const error = opts.describeError(err);
          status.set(c.address, 'failed');
          failed.push({ change: c, error });
          stopped = true;
          opts.onEvent?.({ type: 'failed', change: c, error, elapsedMs: performance.now() - t0 });
        },
      ).finally(() => {
        running--;
        pump();
      });
    };
    pump();
  });
}
