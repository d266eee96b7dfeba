import { mkdir, open, readFile, rm, type FileHandle } from 'node:fs/promises';
import { join } from 'node:path';
import type { JsonValue } from '../util/json.js';
import { fsyncDir, writeFileAtomic } from './atomic-file.js';
import { Barrier } from './barrier.js';
import type { Journal, StoreOp, StoreState } from './journal.js';
import { decodeRecords, encodeRecord } from './record-codec.js';

/**
 * The store's durable form: one append-only log per cluster (`store.log`).
 *
 * Record payloads are JSON, sealed by the cluster's barrier (barrier.ts):
 *   {"i": N, "o": [[key, value|null], ...]}   ops with indexes N, N+1, ... (null deletes)
 *   {"s": N, "o": [[key, value], ...]}        snapshot chunk: state at index N (file start only)
 * A log written in clear by an earlier version is read, then rewritten sealed at once.
 *
 * Writes are group-committed: appends that arrive while a write+fdatasync is in flight are
 * written together by the next one; every append resolves only after its fdatasync.
 * Compaction (and rewrite) writes the whole state to a new file, fsyncs it and renames it over
 * the log, so a crash leaves either the old or the new log, never a mix.
 */

const LOG_FILE = 'store.log';
const DEFAULT_COMPACTION_BYTES = 4 * 1024 * 1024;
const SNAPSHOT_CHUNK_BYTES = 1024 * 1024;

interface Pending {
  frame: Buffer | undefined; // undefined: a rewrite request
  resolve: () => void;
  reject: (err: Error) => void;
}

export interface JournalOptions {
  /** Compact once the log is past this size and twice its last snapshot (default 4 MiB). */
  compactAfterBytes?: number;
}

export interface LoadedLog {
  journal: FileJournal;
  index: number;
  entries: Map<string, JsonValue>;
  /** Bytes of a torn tail that were dropped while loading (0 normally). */
  droppedBytes: number;
  /** Records an earlier version wrote in clear; the caller rewrites the log sealed. */
  clearRecords: number;
}

export class FileJournal implements Journal {
  private pending: Pending[] = [];
  private flushing: Promise<void> | undefined;
  private failure: Error | undefined;
  private stateProvider: (() => StoreState) | undefined;
  private closed = false;

  private constructor(
    private readonly dir: string,
    private handle: FileHandle,
    private size: number,
    private snapshotSize: number,
    private readonly compactAfterBytes: number,
    private readonly barrier: Barrier,
  ) {}

  static async open(dir: string, barrier: Barrier, options: JournalOptions = {}): Promise<LoadedLog> {
    await mkdir(dir, { recursive: true });
    const path = join(dir, LOG_FILE);
    await rm(`${path}.tmp`, { force: true }); // a compaction that did not finish
    let data: Buffer;
    let created = false;
    try {
      data = await readFile(path);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
      data = Buffer.alloc(0);
      created = true;
    }
    const { payloads, validLength } = decodeRecords(data);
    const entries = new Map<string, JsonValue>();
    let index = 0;
    let snapshotSize = 0;
    let clearRecords = 0;
    for (const [n, stored] of payloads.entries()) {
      let payload: Buffer | undefined = stored;
      if (Barrier.isSealed(stored)) payload = barrier.open(stored);
      else clearRecords++;
      if (payload === undefined) {
        // Intact (its checksum holds) yet not ours: never read as a torn tail and dropped.
        throw new Error(`${path}: record ${n + 1} does not open with this cluster's storage key (cluster.json of another data directory?)`);
      }
      const record = JSON.parse(payload.toString('utf8')) as { i?: number; s?: number; o: Array<[string, JsonValue | null]> };
      if (record.s !== undefined) snapshotSize += payload.length;
      const first = record.i ?? record.s ?? 0;
      for (const [key, value] of record.o) {
        if (value === null) entries.delete(key);
        else entries.set(key, value);
      }
      index = Math.max(index, record.i !== undefined ? first + record.o.length - 1 : first);
    }
    const handle = await open(path, 'a');
    if (validLength < data.length) {
      await handle.truncate(validLength);
      await handle.sync();
    }
    if (created) await fsyncDir(dir);
    const journal = new FileJournal(dir, handle, validLength, snapshotSize, options.compactAfterBytes ?? DEFAULT_COMPACTION_BYTES, barrier);
    return { journal, index, entries, droppedBytes: data.length - validLength, clearRecords };
  }

  /** The store hands over how to read its whole state, used by compaction and rewrite. */
  setStateProvider(provider: () => StoreState): void {
    this.stateProvider = provider;
  }

  append(firstIndex: number, ops: StoreOp[]): Promise<void> {
    const payload = Buffer.from(JSON.stringify({ i: firstIndex, o: ops.map((op) => [op.key, op.value]) }), 'utf8');
    return this.enqueue(encodeRecord(this.barrier.seal(payload)));
  }

  rewrite(): Promise<void> {
    return this.enqueue(undefined);
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    while (this.flushing) await this.flushing;
    await this.handle.close();
  }

  private enqueue(frame: Buffer | undefined): Promise<void> {
    if (this.failure) return Promise.reject(this.failure);
    if (this.closed) return Promise.reject(new Error('store is closed'));
    return new Promise<void>((resolve, reject) => {
      this.pending.push({ frame, resolve, reject });
      this.flushing ??= this.flushLoop().finally(() => {
        this.flushing = undefined;
      });
    });
  }

  private async flushLoop(): Promise<void> {
    while (this.pending.length > 0) {
      const batch = this.pending;
      this.pending = [];
      try {
        const wantsRewrite = batch.some((p) => p.frame === undefined);
        const compact = wantsRewrite || this.size > Math.max(this.compactAfterBytes, 2 * this.snapshotSize);
        if (compact) {
          // Taken synchronously with the batch: the snapshot holds exactly the batch's ops and
          // everything before them, so nothing in the batch needs appending afterwards.
          await this.writeSnapshot(this.captureState());
        } else {
          await this.writeFrames(batch.map((p) => p.frame as Buffer));
        }
        for (const p of batch) p.resolve();
      } catch (err) {
        // Memory is now ahead of disk: stop accepting writes rather than acknowledge lies.
        this.failure = new Error(`store write failed: ${(err as Error).message}`);
        for (const p of [...batch, ...this.pending]) p.reject(this.failure);
        this.pending = [];
      }
    }
  }

  private captureState(): StoreState {
    if (!this.stateProvider) throw new Error('no state provider');
    return this.stateProvider();
  }

  private async writeFrames(frames: Buffer[]): Promise<void> {
    const data = frames.length === 1 ? frames[0]! : Buffer.concat(frames);
    let written = 0;
    while (written < data.length) {
      const { bytesWritten } = await this.handle.write(data, written, data.length - written);
      written += bytesWritten;
    }
    await this.handle.datasync();
    this.size += data.length;
  }

  private async writeSnapshot(state: StoreState): Promise<void> {
    const frames: Buffer[] = [];
    let parts: string[] = [];
    let chunkBytes = 0;
    const flushChunk = () => {
      frames.push(encodeRecord(this.barrier.seal(Buffer.from(`{"s":${state.index},"o":[${parts.join(',')}]}`, 'utf8'))));
      parts = [];
      chunkBytes = 0;
    };
    for (const entry of state.entries) {
      const text = JSON.stringify(entry);
      parts.push(text);
      chunkBytes += text.length;
      if (chunkBytes >= SNAPSHOT_CHUNK_BYTES) flushChunk();
    }
    if (parts.length > 0 || frames.length === 0) flushChunk();
    const data = Buffer.concat(frames);
    const path = join(this.dir, LOG_FILE);
    await writeFileAtomic(path, data);
    const old = this.handle;
    this.handle = await open(path, 'a');
    await old.close();
    this.size = data.length;
    this.snapshotSize = data.length;
  }
}
