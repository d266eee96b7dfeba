/**
 * A clock tests move by hand (`startServer({ clock })`): nothing fires until `advance`, which
 * fires the timers that fall due in order, each at its own time, and awaits the work each one
 * started (a snapshot attempt), so a test can assert right after. The wall clock can also be set
 * on its own (`setWallTime`), as an operator or NTP would: timers keep their monotonic due times.
 */
import type { Clock, Timer } from '../../src/server/util/clock.js';

interface Pending {
  due: number;
  /** Order of creation: timers due at the same time fire in the order they were set. */
  seq: number;
  fire: () => unknown;
}

export class ManualClock implements Clock {
  private wallMs: number;
  private monotonicMs = 0;
  private seq = 0;
  private readonly pending = new Set<Pending>();

  constructor(startMs = Date.now()) {
    this.wallMs = startMs;
  }

  now(): number {
    return this.wallMs;
  }

  setTimer(ms: number, fire: () => unknown): Timer {
    const timer: Pending = { due: this.monotonicMs + Math.max(0, ms), seq: this.seq++, fire };
    this.pending.add(timer);
    return { cancel: () => this.pending.delete(timer) };
  }

  /** Timers set and not yet fired or cancelled. */
  get timerCount(): number {
    return this.pending.size;
  }

  /** Moves time forward by `ms`, firing what falls due (also timers those set) and awaiting what each started. */
  async advance(ms: number): Promise<void> {
    const target = this.monotonicMs + ms;
    for (let next = this.nextDue(target); next; next = this.nextDue(target)) {
      this.pending.delete(next);
      this.moveTo(next.due);
      await next.fire();
    }
    this.moveTo(target);
  }

  /** Sets the wall clock without firing anything. */
  setWallTime(ms: number): void {
    this.wallMs = ms;
  }

  private moveTo(monotonicMs: number): void {
    this.wallMs += monotonicMs - this.monotonicMs;
    this.monotonicMs = monotonicMs;
  }

  private nextDue(limit: number): Pending | undefined {
    let first: Pending | undefined;
    for (const t of this.pending) {
      if (t.due <= limit && (!first || t.due < first.due || (t.due === first.due && t.seq < first.seq))) first = t;
    }
    return first;
  }
}
