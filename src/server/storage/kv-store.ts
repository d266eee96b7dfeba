import type { JsonValue } from '../util/json.js';
import { compareBytes } from '../util/lists.js';
import type { Barrier } from './barrier.js';
import { FileJournal, type JournalOptions } from './file-journal.js';
import { MemoryJournal, type Journal, type StoreOp, type StoreState } from './journal.js';

/** A durable change, reported to listeners in index order (value null: the key was deleted). */
export type StoreEvent =
  | { type: 'write'; index: number; key: string; value: JsonValue | null }
  | { type: 'replace'; index: number };

export type StoreListener = (event: StoreEvent) => void;

/**
 * hashicorp/vault sdk/physical/encoding.go: a put or delete of a key that is not valid UTF-8
 * fails ("key contains invalid UTF-8 characters", answered 500 by the handler). Bytes that are
 * not UTF-8 arrive in names held as lone surrogates (http/request-path.ts decodePathBytes).
 */
export class StorageKeyError extends Error {}

function checkKeyEncoding(key: string): void {
  if (/\p{Cs}/u.test(key)) throw new StorageKeyError('1 error occurred:\n\t* key contains invalid UTF-8 characters\n\n');
}

/**
 * One cluster's key/value store: string keys, JSON values, a write index that grows by one
 * per change. Changes apply to memory at once (so a read-modify-write inside one handler tick
 * is atomic) and the returned promise resolves once they are durable; listeners hear about a
 * change only then. Values are frozen: treat what `get` returns as read-only.
 */
export class KvStore {
  private readonly data: Map<string, JsonValue>;
  private writeIndex: number;
  private readonly listeners = new Set<StoreListener>();
  /** All keys in order, rebuilt lazily after a key is added or removed (LIST stays cheap). */
  private sortedKeys: string[] | undefined;

  constructor(
    private readonly journal: Journal,
    initial?: { index: number; entries: Map<string, JsonValue> },
  ) {
    this.data = initial?.entries ?? new Map<string, JsonValue>();
    for (const value of this.data.values()) deepFreeze(value);
    this.writeIndex = initial?.index ?? 0;
  }

  /** In memory only, or persisted under `dir` when given, sealed by `barrier`. */
  static async open(persist?: { dir: string; barrier: Barrier }, options?: JournalOptions): Promise<{ store: KvStore; droppedBytes: number }> {
    if (persist === undefined) return { store: new KvStore(new MemoryJournal()), droppedBytes: 0 };
    const loaded = await FileJournal.open(persist.dir, persist.barrier, options);
    const store = new KvStore(loaded.journal, loaded);
    loaded.journal.setStateProvider(() => store.state());
    return { store, droppedBytes: loaded.droppedBytes };
  }

  /** Index of the last change (0 for a store that never changed). */
  get index(): number {
    return this.writeIndex;
  }

  get size(): number {
    return this.data.size;
  }

  get(key: string): JsonValue | undefined {
    return this.data.get(key);
  }

  /** The service's storage LIST: direct children of prefix, sub-folders with a trailing "/". */
  list(prefix: string): string[] {
    const children: string[] = [];
    for (const key of this.keysUnder(prefix)) {
      const rest = key.slice(prefix.length);
      const slash = rest.indexOf('/');
      const child = slash === -1 ? rest : rest.slice(0, slash + 1);
      if (children[children.length - 1] !== child) children.push(child); // keys are sorted
    }
    return children;
  }

  /** Every full key under prefix, in order. */
  keysUnder(prefix: string): string[] {
    const keys = (this.sortedKeys ??= [...this.data.keys()].sort(compareBytes));
    let low = 0;
    let high = keys.length;
    while (low < high) {
      const mid = (low + high) >>> 1;
      if (keys[mid]! < prefix) low = mid + 1;
      else high = mid;
    }
    const found: string[] = [];
    for (let i = low; i < keys.length && keys[i]!.startsWith(prefix); i++) found.push(keys[i]!);
    return found;
  }

  put(key: string, value: JsonValue): Promise<void> {
    if (value === null || value === undefined) throw new TypeError('put needs a value; use delete');
    return this.write([{ key, value }]);
  }

  delete(key: string): Promise<void> {
    return this.write([{ key, value: null }]);
  }

  deletePrefix(prefix: string): Promise<void> {
    return this.write(this.keysUnder(prefix).map((key) => ({ key, value: null })));
  }

  /**
   * Applies the ops as one atomic change (one log record). Deletes of absent keys are skipped.
   * A key that is not UTF-8 is refused, as the service's storage layer refuses it.
   */
  write(ops: StoreOp[]): Promise<void> {
    for (const op of ops) checkKeyEncoding(op.key);
    const effective = ops.filter((op) => op.value !== null || this.data.has(op.key));
    if (effective.length === 0) return Promise.resolve();
    const first = this.writeIndex + 1;
    for (const op of effective) {
      if (op.value === null) {
        this.data.delete(op.key);
        this.sortedKeys = undefined;
      } else {
        if (!this.data.has(op.key)) this.sortedKeys = undefined;
        this.data.set(op.key, deepFreeze(op.value));
      }
    }
    this.writeIndex += effective.length;
    return this.journal.append(first, effective).then(() => this.notify(first, effective));
  }

  /** A copy of every entry (values shared, they are frozen). */
  entries(): Array<[string, JsonValue]> {
    return [...this.data.entries()];
  }

  state(): StoreState {
    return { index: this.writeIndex, entries: this.entries() };
  }

  /** Replaces the whole content (snapshot restore, DR secondary sync). */
  replaceAll(entries: Iterable<[string, JsonValue]>, index = this.writeIndex + 1): Promise<void> {
    this.data.clear();
    this.sortedKeys = undefined;
    for (const [key, value] of entries) this.data.set(key, deepFreeze(value));
    this.writeIndex = index;
    return this.journal.rewrite().then(() => this.emit({ type: 'replace', index }));
  }

  /** Listens to durable changes; returns the function that stops listening. */
  onWrite(listener: StoreListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Waits for pending writes to be durable, then releases the log. */
  close(): Promise<void> {
    return this.journal.close();
  }

  private notify(first: number, ops: StoreOp[]): void {
    if (this.listeners.size === 0) return;
    ops.forEach((op, i) => this.emit({ type: 'write', index: first + i, key: op.key, value: op.value }));
  }

  private emit(event: StoreEvent): void {
    for (const listener of this.listeners) listener(event);
  }
}

function deepFreeze<T extends JsonValue>(value: T): T {
  if (value !== null && typeof value === 'object' && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const child of Object.values(value)) deepFreeze(child);
  }
  return value;
}
