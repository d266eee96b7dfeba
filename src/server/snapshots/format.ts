/**
 * The snapshot file format of the embedded server (`*.snap`). Text, one JSON value per line, so
 * a snapshot can be inspected with ordinary tools (it holds every secret of the cluster in
 * clear, like the `--data` directory does: keep it private):
 *
 *   LOCKSTEP-SNAPSHOT                                 magic line
 *   {"format":1,"cluster_name":"east","cluster_id":"…","index":42,"entries":3,
 *    "created_at":"2024-05-01T10:00:00.000Z"}        header (one line)
 *   ["core/auth",[…]]                                 one [key, value] per line, sorted by key
 *   …                                                 (exactly `entries` lines)
 *   sha256:<64 hex digits>                            trailer: SHA-256 of every byte before it
 *
 * Every line ends with "\n". JSON.stringify escapes newlines inside strings, so a value never
 * spans lines. The state is the whole key/value store at one write index (`index`), which is
 * what a restore puts back.
 */
import { createHash } from 'node:crypto';
import type { StoreState } from '../storage/journal.js';
import type { JsonValue } from '../util/json.js';
import { compareBytes } from '../util/lists.js';

export const SNAPSHOT_MAGIC = 'LOCKSTEP-SNAPSHOT';
export const SNAPSHOT_FORMAT_VERSION = 1;

export interface SnapshotHeader {
  format: number;
  cluster_name: string;
  cluster_id: string;
  /** The store's write index the entries are the state at. */
  index: number;
  /** Number of entry lines. */
  entries: number;
  /** RFC 3339. */
  created_at: string;
}

export interface DecodedSnapshot {
  header: SnapshotHeader;
  entries: Array<[string, JsonValue]>;
}

/** A file that is not a complete, intact snapshot of this format. */
export class SnapshotFormatError extends Error {
  override readonly name = 'SnapshotFormatError';
}

export function encodeSnapshot(state: StoreState, cluster: { name: string; id: string }, createdAt: Date): Buffer {
  const entries = [...state.entries].sort((a, b) => compareBytes(a[0], b[0]));
  const header: SnapshotHeader = {
    format: SNAPSHOT_FORMAT_VERSION,
    cluster_name: cluster.name,
    cluster_id: cluster.id,
    index: state.index,
    entries: entries.length,
    created_at: createdAt.toISOString(),
  };
  const lines = [SNAPSHOT_MAGIC, JSON.stringify(header), ...entries.map((entry) => JSON.stringify(entry))];
  const body = Buffer.from(lines.join('\n') + '\n', 'utf8');
  const trailer = Buffer.from(`sha256:${sha256Hex(body)}\n`, 'utf8');
  return Buffer.concat([body, trailer]);
}

/** Checks the magic, the checksum, the header and every entry; throws SnapshotFormatError. */
export function decodeSnapshot(data: Buffer): DecodedSnapshot {
  const magic = Buffer.from(SNAPSHOT_MAGIC + '\n', 'utf8');
  if (data.length < magic.length || !data.subarray(0, magic.length).equals(magic)) {
    throw new SnapshotFormatError('not a lockstep snapshot (the file does not start with LOCKSTEP-SNAPSHOT)');
  }
  const { body, digest } = splitTrailer(data);
  if (sha256Hex(body) !== digest) throw new SnapshotFormatError('checksum mismatch: the file is corrupt or was modified');

  const lines = body.toString('utf8').split('\n');
  lines.pop(); // the body ends with "\n"
  const header = parseHeader(lines[1]);
  const entryLines = lines.slice(2);
  if (entryLines.length !== header.entries) {
    throw new SnapshotFormatError(`the header announces ${header.entries} entries but the file holds ${entryLines.length}`);
  }
  const seen = new Set<string>();
  const entries = entryLines.map((line, i): [string, JsonValue] => {
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
  if (h.format !== SNAPSHOT_FORMAT_VERSION) {
    throw new SnapshotFormatError(`unsupported snapshot format ${JSON.stringify(h.format)} (this server reads format ${SNAPSHOT_FORMAT_VERSION})`);
  }
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
