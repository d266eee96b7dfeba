/**
 * Runs the automated snapshots of one cluster. Schedules follow the configurations in the
 * store: a write of a configuration (re)starts its schedule one interval from now, a delete
 * ends it, and a whole-store replacement (restore, DR sync) keeps unchanged schedules and
 * redoes the rest. Each attempt writes the store's state taken synchronously at one write
 * index. At most one attempt per configuration runs at a time: a tick that finds the previous
 * attempt still running is skipped. Time comes from the cluster's clock (util/clock.ts): its
 * timers never keep the process alive and are all cancelled by stop().
 */
import type { KvStore, StoreEvent } from '../storage/kv-store.js';
import { systemClock, type Clock, type Timer } from '../util/clock.js';
import type { JsonObject } from '../util/json.js';
import { runAttempt, type OpenStore } from './attempt.js';
import type { SnapshotConfig } from './config.js';
import { CONFIG_PREFIX, storedConfig, storedConfigs } from './config-store.js';
import { encodeSnapshot } from './format.js';
import type { SnapshotKey } from './snapshot-key.js';
import { attemptFinished, attemptStarted, INITIAL_STATUS, scheduled, statusView, type SnapshotStatus } from './status.js';

/** What the scheduler needs of its cluster. */
export interface SnapshotSource {
  readonly name: string;
  readonly id: string;
  readonly store: KvStore;
  readonly log: (line: string) => void;
  /** The key snapshots are sealed with now (from the root key of the data the cluster holds). */
  snapshotKey(): SnapshotKey;
}

export interface SchedulerOptions {
  /** Default: the system clock. */
  clock?: Clock;
  open?: OpenStore;
}

interface Schedule {
  config: SnapshotConfig;
  /** The stored configuration as JSON: tells an unchanged configuration after a replacement. */
  fingerprint: string;
  timer: Timer | undefined;
  status: SnapshotStatus;
}

/** How long stop() lets a running attempt finish (real time: it bounds real I/O, not a schedule). */
const STOP_GRACE_MS = 5_000;

export class SnapshotScheduler {
  private readonly schedules = new Map<string, Schedule>();
  /** Running attempts by configuration name (kept across a delete and re-create of the name). */
  private readonly running = new Map<string, Promise<void>>();
  private unsubscribe: (() => void) | undefined;
  private state: 'new' | 'running' | 'stopped' = 'new';
  private readonly clock: Clock;

  constructor(
    private readonly source: SnapshotSource,
    private readonly options: SchedulerOptions = {},
  ) {
    this.clock = options.clock ?? systemClock;
  }

  start(): void {
    if (this.state !== 'new') return;
    this.state = 'running';
    this.unsubscribe = this.source.store.onWrite((event) => this.onStoreEvent(event));
    this.resync();
  }

  /** Cancels every timer; lets running attempts end (for a few seconds at most). */
  async stop(): Promise<void> {
    if (this.state === 'stopped') return;
    this.state = 'stopped';
    this.unsubscribe?.();
    for (const schedule of this.schedules.values()) schedule.timer?.cancel();
    this.schedules.clear();
    const pending = [...this.running.values()];
    if (pending.length === 0) return;
    let timer: NodeJS.Timeout | undefined;
    const grace = new Promise<void>((resolve) => {
      timer = setTimeout(resolve, STOP_GRACE_MS);
      timer.unref();
    });
    await Promise.race([Promise.allSettled(pending), grace]);
    clearTimeout(timer);
  }

  /** The status view of a stored configuration; undefined when there is none of that name. */
  status(name: string): JsonObject | undefined {
    if (!storedConfig(this.source.store, name)) return undefined;
    return statusView(this.schedules.get(name)?.status ?? INITIAL_STATUS);
  }

  private onStoreEvent(event: StoreEvent): void {
    switch (event.type) {
      case 'write':
        if (event.key.startsWith(CONFIG_PREFIX)) this.reschedule(event.key.slice(CONFIG_PREFIX.length));
        return;
      case 'replace':
        this.resync();
        return;
    }
  }

  /** After a write of one configuration: its schedule starts over from now; a delete ends it. */
  private reschedule(name: string): void {
    if (this.state !== 'running') return;
    const config = storedConfig(this.source.store, name);
    const existing = this.schedules.get(name);
    existing?.timer?.cancel();
    if (!config) {
      this.schedules.delete(name);
      return;
    }
    // The same object stays: an attempt running with the old settings reports into it.
    const schedule: Schedule = existing ?? { config, fingerprint: '', timer: undefined, status: INITIAL_STATUS };
    schedule.config = config;
    schedule.fingerprint = JSON.stringify(config);
    this.schedules.set(name, schedule);
    this.planNext(name, schedule);
  }

  /** After the whole store changed: unchanged configurations keep their schedule. */
  private resync(): void {
    if (this.state !== 'running') return;
    const configs = storedConfigs(this.source.store);
    for (const name of [...this.schedules.keys()]) if (!configs.has(name)) this.reschedule(name);
    for (const [name, config] of configs) {
      if (this.schedules.get(name)?.fingerprint !== JSON.stringify(config)) this.reschedule(name);
    }
  }

  private planNext(name: string, schedule: Schedule): void {
    const intervalMs = schedule.config.interval * 1000;
    schedule.status = scheduled(schedule.status, new Date(this.clock.now() + intervalMs));
    schedule.timer = this.clock.setTimer(intervalMs, () => this.tick(name, schedule));
  }

  /** Starts the attempt that is due; returns it (a test clock awaits it), or undefined when none starts. */
  private tick(name: string, schedule: Schedule): Promise<void> | undefined {
    if (this.state !== 'running' || this.schedules.get(name) !== schedule) return undefined;
    this.planNext(name, schedule);
    if (this.running.has(name)) {
      this.log(`snapshot-auto ${name}: the previous snapshot is still being written; skipping this one`);
      return undefined;
    }
    const run = this.attempt(schedule)
      .then((outcome) => {
        if (outcome.ok) this.log(`snapshot-auto ${name}: wrote ${outcome.url} (${outcome.bytes} bytes)`);
        else this.log(`snapshot-auto ${name}: snapshot failed: ${outcome.error}`);
      })
      .catch((err: unknown) => this.log(`snapshot-auto ${name}: snapshot failed: ${err instanceof Error ? err.name : 'error'}`))
      .finally(() => this.running.delete(name));
    this.running.set(name, run);
    return run;
  }

  private async attempt(schedule: Schedule) {
    const config = schedule.config;
    const startedAt = this.now();
    // Taken synchronously: every entry at one write index.
    const snapshot = encodeSnapshot(this.source.store.state(), this.source, startedAt, this.source.snapshotKey());
    const outcome = await runAttempt({
      config,
      snapshot,
      nowNs: unixNanos(startedAt),
      open: this.options.open,
      onStarted: (url) => (schedule.status = attemptStarted(schedule.status, startedAt, url)),
    });
    schedule.status = attemptFinished(schedule.status, startedAt, this.now(), outcome);
    return outcome;
  }

  private now(): Date {
    return new Date(this.clock.now());
  }

  private log(line: string): void {
    this.source.log(`cluster ${this.source.name}: ${line}`);
  }
}

/** Milliseconds of the clock, the sub-millisecond digits from the monotonic clock (names stay distinct). */
function unixNanos(at: Date): bigint {
  return BigInt(at.getTime()) * 1_000_000n + (process.hrtime.bigint() % 1_000_000n);
}

