import type { JsonValue } from '../util/json.js';

/** One change to the store: a value to put, or null to delete the key. */
export interface StoreOp {
  key: string;
  value: JsonValue | null;
}

/** A consistent copy of the whole store, taken synchronously. */
export interface StoreState {
  index: number;
  entries: Array<[string, JsonValue]>;
}

/** Where the store makes its changes durable. */
export interface Journal {
  /** Resolves once the ops (indexes firstIndex, firstIndex+1, ...) are durable. */
  append(firstIndex: number, ops: StoreOp[]): Promise<void>;
  /** Replaces everything durable by the store's current state (atomically). */
  rewrite(): Promise<void>;
  close(): Promise<void>;
}

/** Without --data: nothing to make durable. */
export class MemoryJournal implements Journal {
  append(): Promise<void> {
    return Promise.resolve();
  }
  rewrite(): Promise<void> {
    return Promise.resolve();
  }
  close(): Promise<void> {
    return Promise.resolve();
  }
}
