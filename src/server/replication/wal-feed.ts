import { randomUUID } from 'node:crypto';
import type { KvStore, StoreEvent } from '../storage/kv-store.js';
import type { JsonValue } from '../util/json.js';

/** One replicated change: the primary's write index, the key, the value (null: deleted). */
export interface Wal {
  index: number;
  key: string;
  value: JsonValue | null;
}

/** Recent changes kept for secondaries that stream; older ones need a full copy instead. */
const MAX_KEPT = 20_000;

/**
 * The primary's recent writes, as the store reports them once durable. A stream id names one
 * unbroken history: a secondary that followed another one (the primary restarted, was restored
 * or became primary again) gets a full copy instead of WALs.
 */
export class WalFeed {
  private wals: Wal[] = [];
  private base: number;
  private id = randomUUID();
  private readonly waiters = new Set<() => void>();
  private readonly unsubscribe: () => void;

  constructor(private readonly store: KvStore) {
    this.base = store.index;
    this.unsubscribe = store.onWrite((event) => this.record(event));
  }

  get streamId(): string {
    return this.id;
  }

  /** Starts a new history at the store's current index. */
  reset(): void {
    this.wals = [];
    this.base = this.store.index;
    this.id = randomUUID();
    this.wake();
  }

  /** Can a secondary at `after` of stream `stream` continue with WALs alone? */
  canContinue(stream: string, after: number): boolean {
    return stream === this.id && after >= this.base && after <= this.store.index;
  }

  /** The WALs after `after` (empty when there is none yet). */
  since(after: number): Wal[] {
    const first = this.wals.findIndex((w) => w.index > after);
    return first === -1 ? [] : this.wals.slice(first);
  }

  /** Resolves at the next change or wake-up, or after `ms`. */
  next(ms: number): Promise<void> {
    return new Promise((resolve) => {
      const done = () => {
        clearTimeout(timer);
        this.waiters.delete(done);
        resolve();
      };
      const timer = setTimeout(done, ms);
      this.waiters.add(done);
    });
  }

  /** Ends every wait now (a revocation, a mode change, closing). */
  wake(): void {
    for (const w of [...this.waiters]) w();
  }

  close(): void {
    this.unsubscribe();
    this.wake();
  }

  private record(event: StoreEvent): void {
    switch (event.type) {
      case 'write':
        this.wals.push({ index: event.index, key: event.key, value: event.value });
        if (this.wals.length > MAX_KEPT) {
          const dropped = this.wals.splice(0, this.wals.length - MAX_KEPT);
          this.base = dropped[dropped.length - 1]!.index;
        }
        break;
      case 'replace': // a restore or a full copy: the history starts again
        this.wals = [];
        this.base = event.index;
        this.id = randomUUID();
        break;
    }
    this.wake();
  }
}
