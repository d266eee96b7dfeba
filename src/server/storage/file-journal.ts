import { mkdir, open, readFile, rm, type FileHandle } from 'node:fs/promises';
import { createHash } from 'node:crypto';
import { join } from 'node:path';
import type { JsonValue } from '../util/json.js';
import { fsyncDir, writeFileAtomic } from './atomic-file.js';
import { PRIVATE_DIR_MODE, PRIVATE_FILE_MODE } from './private-dir.js';
import { Barrier } from './barrier.js';
import type { Journal, StoreOp, StoreState } from './journal.js';
import { decodeRecords, encodeRecord } from './record-codec.js';

/**
 * The store's durable form: one append-only log per cluster (`store.log`).
 *
 * Record payloads are JSON, sealed by the cluster's barrier (barrier.ts):
 *   {"i": N, "o": [[key, value|null], ...]}   ops with indexes N, N+1, ... (null deletes)
 *   {"s": N, "o": [[key, value], ...]}        snapshot chunk: state at index N (file start only)
 * Each record is sealed for its place in the log: its AAD is the SHA-256 of the sealed record
 * before it (a fixed value for the first), so a record swapped with another, removed from the
 * middle or copied in from another log does not open, and the log is refused with its record
 * number rather than replayed in another order. A log of an earlier version (records in clear,
 * or sealed without AAD) is refused, naming the file.
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
  /** The record's plain payload; undefined: a rewrite request. Sealed when written, for its place. */
  payload: Buffer | undefined;
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
}

export class FileJournal implements Journal {
  private pending: Pending[] = [];
  private flushing: Promise<void> | undefined;
  private failure: Error | undefined;
  private stateProvider: (() => StoreState) | undefined;
  private closed = false;
  /** What the next record is sealed for: the digest of the last sealed record (chainStart in a new file). */
  private chain: Buffer;

  private constructor(
    private readonly dir: string,
    private handle: FileHandle,
    private size: number,
    private snapshotSize: number,
    private readonly compactAfterBytes: number,
    private readonly barrier: Barrier,
    chain: Buffer,
  ) {
    this.chain = chain;
  }

  static async open(dir: string, barrier: Barrier, options: JournalOptions = {}): Promise<LoadedLog> {
    await mkdir(dir, { recursive: true, mode: PRIVATE_DIR_MODE });
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
    let chain: Buffer = CHAIN_START;
    for (const [n, stored] of payloads.entries()) {
      const format = Barrier.formatOf(stored);
      if (format !== 'bound') {
        const what = format === 'clear' ? 'records in clear' : format === 'unbound' ? 'records not bound to their place in the log' : 'records of an unknown format';
        throw new Error(
          `${path} was written by an earlier version of lockstep (${what}); this version does not read it: ` +
            'move the data directory away and start afresh (its state cannot be carried over)',
        );
      }
      const payload = barrier.open(stored, recordAad(chain));
      if (payload === undefined) {
        // Intact (its checksum holds) yet not sealed for this place: never dropped as a torn tail.
        throw new Error(
          `${path}: record ${n + 1} does not open at its place in the log: records were swapped, removed or copied in ` +
            "from another log, or it was sealed with another cluster's storage key (cluster.json of another data directory?)",
        );
      }
      chain = chainAfter(stored);
      const record = JSON.parse(payload.toString('utf8')) as { i?: number; s?: number; o: Array<[string, JsonValue | null]> };
      if (record.s !== undefined) snapshotSize += payload.length;
      const first = record.i ?? record.s ?? 0;
      for (const [key, value] of record.o) {
        if (value === null) entries.delete(key);
        else entries.set(key, value);
      }
      index = Math.max(index, record.i !== undefined ? first + record.o.length - 1 : first);
    }
    const handle = await open(path, 'a', PRIVATE_FILE_MODE);
    // A log an earlier version made as 0644 is made owner-only too.
    await handle.chmod(PRIVATE_FILE_MODE);
    if (validLength < data.length) {
      await handle.truncate(validLength);
      await handle.sync();
    }
    if (created) await fsyncDir(dir);
    const journal = new FileJournal(dir, handle, validLength, snapshotSize, options.compactAfterBytes ?? DEFAULT_COMPACTION_BYTES, barrier, chain);
    return { journal, index, entries, droppedBytes: data.length - validLength };
  }

  /** The store hands over how to read its whole state, used by compaction and rewrite. */
  setStateProvider(provider: () => StoreState): void {
    this.stateProvider = provider;
  }

  append(firstIndex: number, ops: StoreOp[]): Promise<void> {
    return this.enqueue(Buffer.from(JSON.stringify({ i: firstIndex, o: ops.map((op) => [op.key, op.value]) }), 'utf8'));
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

  private enqueue(payload: Buffer | undefined): Promise<void> {
    if (this.failure) return Promise.reject(this.failure);
    if (this.closed) return Promise.reject(new Error('store is closed'));
    return new Promise<void>((resolve, reject) => {
      this.pending.push({ payload, resolve, reject });
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
        const wantsRewrite = batch.some((p) => p.payload === undefined);
        const compact = wantsRewrite || this.size > Math.max(this.compactAfterBytes, 2 * this.snapshotSize);
        if (compact) {
          // Taken synchronously with the batch: the snapshot holds exactly the batch's ops and
          // everything before them, so nothing in the batch needs appending afterwards.
          await this.writeSnapshot(this.captureState());
        } else {
          await this.writeFrames(batch.map((p) => this.sealNext(p.payload as Buffer)));
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

  /** The framed record of `payload`, sealed for the next place in the log. */
  private sealNext(payload: Buffer): Buffer {
    const sealed = this.barrier.seal(payload, recordAad(this.chain));
    this.chain = chainAfter(sealed);
    return encodeRecord(sealed);
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
    this.chain = CHAIN_START; // a new file
    const flushChunk = () => {
      frames.push(this.sealNext(Buffer.from(`{"s":${state.index},"o":[${parts.join(',')}]}`, 'utf8')));
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

/** The first record of a file is sealed for this place. */
export const CHAIN_START: Buffer = Buffer.alloc(32);
const AAD_PREFIX = Buffer.from('lockstep store.log record after ', 'utf8');

/** The AAD of a record whose predecessor's digest is `chain` (CHAIN_START for the first). */
export function recordAad(chain: Buffer): Buffer {
  return Buffer.concat([AAD_PREFIX, chain]);
}

function chainAfter(sealed: Buffer): Buffer {
  return createHash('sha256').update(sealed).digest();
}
