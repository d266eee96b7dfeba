/**
 * The snapshot file format of the embedded server (`*.snap`). Text lines; the cluster's data is
 * sealed (AES-256-GCM, with a key derived from the root key of the data: snapshot-key.ts), so a
 * snapshot in a bucket or a directory holds no secret in clear:
 *
 *   LOCKSTEP-SNAPSHOT                                 magic line
 *   {"format":3,"cluster_name":"east","cluster_id":"…","index":42,"entries":3,
 *    "created_at":"2024-05-01T10:00:00.000Z","key_id":"…"}   header (one line, in clear)
 *   <base64 of the sealed entries>                    one line; opened, it is one [key, value]
 *                                                     JSON per line, sorted by key
 *   sha256:<64 hex digits>                            trailer: SHA-256 of every byte before it
 *
 * The header is readable without the key (what a listing shows) but authenticated: the magic
 * line and the header line, byte for byte, are the AAD of the sealed entries, so a header whose
 * `index` or `cluster_name` was rewritten does not open. The trailer only tells a truncated or
 * corrupt file apart early; having no key, it proves nothing about who wrote the file.
 *
 * Formats 1 (entries in clear) and 2 (header under the trailer only) of earlier versions are
 * refused with a clear error: their headers, and format 1's entries, are not authenticated.
 * The state is the whole key/value store at one write index (`index`), which is what a restore
 * puts back.
 */
import { createHash } from 'node:crypto';
import type { StoreState } from '../storage/journal.js';
import type { JsonValue } from '../util/json.js';
import { compareBytes } from '../util/lists.js';
import type { SnapshotKey } from './snapshot-key.js';

const SNAPSHOT_MAGIC = 'LOCKSTEP-SNAPSHOT';
const SNAPSHOT_FORMAT_VERSION = 3;
/** Formats of earlier versions: recognised, refused. */
const UNAUTHENTICATED_FORMATS = new Set([1, 2]);

interface SnapshotHeader {
  format: number;
  cluster_name: string;
  cluster_id: string;
  /** The store's write index the entries are the state at. */
  index: number;
  /** Number of entries. */
  entries: number;
  /** RFC 3339. */
  created_at: string;
  /** Which key sealed the entries. */
  key_id: string;
}

export interface DecodedSnapshot {
  header: SnapshotHeader;
  entries: Array<[string, JsonValue]>;
}

/** A file whose envelope (magic, checksum, header) is intact; its entries (and so its header) not yet authenticated. */
export interface SnapshotFile {
  header: SnapshotHeader;
  /** The magic and header lines as written: what the entries were sealed for. */
  sealedFor: Buffer;
  sealed: Buffer;
}

/** A file that is not a complete, intact snapshot of this format. */
export class SnapshotFormatError extends Error {
  override readonly name = 'SnapshotFormatError';
}

/** An intact snapshot sealed with a key none of those at hand matches. */
export class SnapshotKeyError extends Error {
  override readonly name = 'SnapshotKeyError';
}

export function encodeSnapshot(state: StoreState, cluster: { name: string; id: string }, createdAt: Date, key: SnapshotKey): Buffer {
  const entries = [...state.entries].sort((a, b) => compareBytes(a[0], b[0]));
  const header: SnapshotHeader = {
    format: SNAPSHOT_FORMAT_VERSION,
    cluster_name: cluster.name,
    cluster_id: cluster.id,
    index: state.index,
    entries: entries.length,
    created_at: createdAt.toISOString(),
    key_id: key.id,
  };
  const headerLines = Buffer.from(`${SNAPSHOT_MAGIC}\n${JSON.stringify(header)}\n`, 'utf8');
  const sealed = key.barrier.seal(Buffer.from(entries.map((entry) => JSON.stringify(entry) + '\n').join(''), 'utf8'), headerLines);
  const body = Buffer.concat([headerLines, Buffer.from(`${sealed.toString('base64')}\n`, 'utf8')]);
  const trailer = Buffer.from(`sha256:${sha256Hex(body)}\n`, 'utf8');
  return Buffer.concat([body, trailer]);
}

/** Checks the magic, the checksum and the header; throws SnapshotFormatError. */
export function readSnapshotEnvelope(data: Buffer): SnapshotFile {
  const magic = Buffer.from(SNAPSHOT_MAGIC + '\n', 'utf8');
  if (data.length < magic.length || !data.subarray(0, magic.length).equals(magic)) {
    throw new SnapshotFormatError('not a lockstep snapshot (the file does not start with LOCKSTEP-SNAPSHOT)');
  }
  const { body, digest } = splitTrailer(data);
  if (sha256Hex(body) !== digest) throw new SnapshotFormatError('checksum mismatch: the file is corrupt or was modified');

  const lines = body.toString('utf8').split('\n');
  lines.pop(); // the body ends with "\n"
  const header = parseHeader(lines[1]);
  const rest = lines.slice(2);
  if (rest.length !== 1 || !/^[A-Za-z0-9+/]+={0,2}$/.test(rest[0]!)) throw new SnapshotFormatError('the sealed entries are not one base64 line');
  const sealedFor = body.subarray(0, body.length - Buffer.byteLength(rest[0]!) - 1);
  return { header, sealedFor, sealed: Buffer.from(rest[0]!, 'base64') };
}

/**
 * Opens a snapshot's entries with whichever of `keys` sealed them (a format 1 file needs none),
 * and checks every entry. Throws SnapshotFormatError, or SnapshotKeyError for an unknown key.
 */
export function openSnapshot(file: SnapshotFile, keys: readonly SnapshotKey[]): DecodedSnapshot {
  const { header } = file;
  const key = keys.find((k) => k.id === header.key_id);
  if (!key) {
    throw new SnapshotKeyError(
      `it was sealed with the root key of cluster ${JSON.stringify(header.cluster_name)} (key id ${header.key_id}), which this cluster does not hold: ` +
        'restore it into a cluster of the same data directory or DR set, or give that cluster\'s key shares (--restore-keys, the file --init-out wrote)',
    );
  }
  const plain = key.barrier.open(file.sealed, file.sealedFor);
  if (!plain) throw new SnapshotFormatError('the header does not match the sealed entries: a header field was rewritten, or the file is corrupt');
  const lines = plain.toString('utf8').split('\n');
  lines.pop();
  if (lines.length !== header.entries) {
    throw new SnapshotFormatError(`the header announces ${header.entries} entries but the file holds ${lines.length}`);
  }
  const seen = new Set<string>();
  const entries = lines.map((line, i): [string, JsonValue] => {
    const entry = parseJson(line, `entry ${i + 1}`);
    if (!Array.isArray(entry) || entry.length !== 2 || typeof entry[0] !== 'string' || entry[1] === null) {
      throw new SnapshotFormatError(`entry ${i + 1} is not a [key, value] pair`);
    }
    if (seen.has(entry[0])) throw new SnapshotFormatError(`entry ${i + 1} repeats the key ${JSON.stringify(entry[0])}`);
    seen.add(entry[0]);
    return [entry[0], entry[1] as JsonValue];
  });
  return { header, entries };
}

/** The envelope, then the entries: what a reader holding the keys does in one call. */
export function decodeSnapshot(data: Buffer, keys: readonly SnapshotKey[]): DecodedSnapshot {
  return openSnapshot(readSnapshotEnvelope(data), keys);
}

function splitTrailer(data: Buffer): { body: Buffer; digest: string } {
  // The trailer is the last line: "sha256:" + 64 hex + "\n".
  const trailerLength = 'sha256:'.length + 64 + 1;
  const trailer = data.length >= trailerLength ? data.subarray(data.length - trailerLength).toString('latin1') : '';
  const m = /^sha256:([0-9a-f]{64})\n$/.exec(trailer);
  if (!m || data[data.length - trailerLength - 1] !== 0x0a) {
    throw new SnapshotFormatError('the checksum trailer is missing: the file is truncated or corrupt');
  }
  return { body: data.subarray(0, data.length - trailerLength), digest: m[1]! };
}

function parseHeader(line: string | undefined): SnapshotHeader {
  const h = parseJson(line ?? '', 'the header') as Partial<SnapshotHeader> | null;
  if (h === null || typeof h !== 'object' || Array.isArray(h)) throw new SnapshotFormatError('the header is not a JSON object');
  if (typeof h.format === 'number' && UNAUTHENTICATED_FORMATS.has(h.format)) {
    throw new SnapshotFormatError(
      `snapshot format ${h.format} was written by an earlier version of lockstep: its header is not authenticated, so this version does not restore it ` +
        '(take a new snapshot with this version)',
    );
  }
  if (h.format !== SNAPSHOT_FORMAT_VERSION) {
    throw new SnapshotFormatError(`unsupported snapshot format ${JSON.stringify(h.format)} (this server reads format ${SNAPSHOT_FORMAT_VERSION})`);
  }
  if (typeof h.key_id !== 'string' || h.key_id === '') throw new SnapshotFormatError('the header lacks key_id');
  const nonNegativeInt = (v: unknown) => typeof v === 'number' && Number.isSafeInteger(v) && v >= 0;
  if (!nonNegativeInt(h.index) || !nonNegativeInt(h.entries)) throw new SnapshotFormatError('the header lacks a valid index or entry count');
  if (typeof h.cluster_name !== 'string' || typeof h.cluster_id !== 'string' || typeof h.created_at !== 'string') {
    throw new SnapshotFormatError('the header lacks cluster_name, cluster_id or created_at');
  }
  return h as SnapshotHeader;
}

function parseJson(line: string, what: string): unknown {
  try {
    return JSON.parse(line);
  } catch {
    throw new SnapshotFormatError(`${what} is not valid JSON`);
  }
}

function sha256Hex(data: Buffer): string {
  return createHash('sha256').update(data).digest('hex');
}
