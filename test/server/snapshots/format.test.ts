import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { decodeSnapshot, encodeSnapshot, SnapshotFormatError, SnapshotKeyError } from '../../../src/server/snapshots/format.js';
import { snapshotKeyFromShares, snapshotKeyOf } from '../../../src/server/snapshots/snapshot-key.js';
import { newKeyMaterial } from '../../../src/server/replication/root-key.js';
import { parseRestoreSpecs } from '../../../src/server/snapshots/restore.js';

const cluster = { name: 'east', id: '5f0c-id' };
const state = {
  index: 42,
  entries: [
    ['b/key', { text: 'line one\nline two', list: [1, 2] }],
    ['a/key', 'plain'],
    ['c/ünïcode', true],
  ] as Array<[string, any]>,
};

const material = await newKeyMaterial({ shares: 3, threshold: 2 });
const key = snapshotKeyOf(material.root_key);

/** A format 1 file, as earlier versions wrote it: the entry lines in clear. */
function clearSnapshot(entryLines: string[], entries = entryLines.length): Buffer {
  const header = { format: 1, cluster_name: 'east', cluster_id: '5f0c-id', index: 42, entries, created_at: '2024-05-01T10:00:00.000Z' };
  const body = ['LOCKSTEP-SNAPSHOT', JSON.stringify(header), ...entryLines].join('\n') + '\n';
  return withChecksum(body);
}

/** The file with its checksum trailer made consistent again (anyone can: the hash has no key). */
function withChecksum(body: string): Buffer {
  return Buffer.from(body + `sha256:${createHash('sha256').update(body).digest('hex')}\n`);
}

/** `data` with its header line rewritten by `edit`, and a consistent checksum. */
function rewriteHeader(data: Buffer, edit: (header: Record<string, unknown>) => Record<string, unknown>): Buffer {
  const text = data.toString('utf8');
  const lines = text.slice(0, text.lastIndexOf('sha256:')).split('\n');
  lines[1] = JSON.stringify(edit(JSON.parse(lines[1]!)));
  return withChecksum(lines.join('\n'));
}

describe('snapshot file format', () => {
  it('round-trips the state, entries sorted by key, with the header', () => {
    const data = encodeSnapshot(state, cluster, new Date('2024-05-01T10:00:00Z'), key);
    const text = data.toString('utf8');
    expect(text.startsWith('LOCKSTEP-SNAPSHOT\n')).toBe(true);
    expect(text).toMatch(/\nsha256:[0-9a-f]{64}\n$/);
    const decoded = decodeSnapshot(data, [key]);
    expect(decoded.header).toEqual({
      format: 3,
      cluster_name: 'east',
      cluster_id: '5f0c-id',
      index: 42,
      entries: 3,
      created_at: '2024-05-01T10:00:00.000Z',
      key_id: key.id,
    });
    expect(decoded.entries).toEqual([...state.entries].sort((x, y) => (x[0] < y[0] ? -1 : 1)));
  });

  it('seals the entries: no key, no value in the file, and only the root key (or its shares) opens it', async () => {
    const data = encodeSnapshot(state, cluster, new Date(), key);
    for (const text of ['plain', 'line one', 'a/key', 'ünïcode']) expect(data.includes(text), text).toBe(false);
    expect(() => decodeSnapshot(data, [])).toThrow(SnapshotKeyError);
    const otherKey = snapshotKeyOf((await newKeyMaterial()).root_key);
    expect(() => decodeSnapshot(data, [otherKey])).toThrow(/sealed with the root key of cluster "east" \(key id [0-9a-f]{16}\)/);
    const fromShares = (await snapshotKeyFromShares([material.key_shares[2]!, material.key_shares[0]!]))!;
    expect(fromShares.id).toBe(key.id);
    expect(decodeSnapshot(data, [fromShares]).entries).toHaveLength(3);
    expect(await snapshotKeyFromShares(['zz not a share'])).toBeUndefined();
  });

  it('#13.11: refuses a snapshot whose header was rewritten (index, cluster_name, any field), though its checksum is made to match', () => {
    const data = encodeSnapshot(state, cluster, new Date('2024-05-01T10:00:00Z'), key);
    const rewrites: Array<(h: Record<string, unknown>) => Record<string, unknown>> = [
      (h) => ({ ...h, index: 999_999 }),
      (h) => ({ ...h, cluster_name: 'west' }),
      (h) => ({ ...h, cluster_id: 'other' }),
      (h) => ({ ...h, created_at: '2030-01-01T00:00:00.000Z' }),
      (h) => ({ ...h, extra: true }),
      (h) => ({ ...h }), // the same fields, serialised again: the header is bound byte for byte
    ];
    for (const edit of rewrites) {
      const forged = rewriteHeader(data, edit);
      if (forged.equals(data)) continue;
      expect(() => decodeSnapshot(forged, [key])).toThrow(/the header does not match the sealed entries: a header field was rewritten, or the file is corrupt/);
    }
  });

  it('#13.11: refuses the formats of earlier versions, whose headers are not authenticated (format 1 in clear, format 2)', () => {
    expect(() => decodeSnapshot(clearSnapshot(['["a/key","plain"]']), [])).toThrow(
      /snapshot format 1 was written by an earlier version of lockstep: its header is not authenticated, so this version does not restore it/,
    );
    const format2 = rewriteHeader(encodeSnapshot(state, cluster, new Date(), key), (h) => ({ ...h, format: 2 }));
    expect(() => decodeSnapshot(format2, [key])).toThrow(/snapshot format 2 was written by an earlier version/);
  });

  it('does not change its input', () => {
    const before = JSON.stringify(state);
    encodeSnapshot(state, cluster, new Date(), key);
    expect(JSON.stringify(state)).toBe(before);
  });

  it('refuses a flipped byte, a truncated file, another file, a wrong entry count', () => {
    const data = encodeSnapshot(state, cluster, new Date(), key);
    const flipped = Buffer.from(data);
    flipped[40] = flipped[40]! ^ 0x01;
    expect(() => decodeSnapshot(flipped, [key])).toThrow(/checksum mismatch/);
    expect(() => decodeSnapshot(data.subarray(0, data.length - 10), [key])).toThrow(/truncated/);
    expect(() => decodeSnapshot(data.subarray(0, data.length - 80), [key])).toThrow(SnapshotFormatError);
    expect(() => decodeSnapshot(Buffer.from('{"hello":"world"}\n'), [key])).toThrow(/not a lockstep snapshot/);
    expect(() => decodeSnapshot(Buffer.alloc(0), [key])).toThrow(/not a lockstep snapshot/);

    // A consistent checksum over a lying header is still refused.
    const lying = rewriteHeader(data, (h) => ({ ...h, entries: 4 }));
    expect(() => decodeSnapshot(lying, [key])).toThrow(/the header does not match the sealed entries/);
  });
});

describe('--restore values', () => {
  it('names a cluster with NAME=FILE, else applies to the first cluster', () => {
    expect(parseRestoreSpecs(['a.snap'], ['east', 'west'])).toEqual({ east: 'a.snap' });
    expect(parseRestoreSpecs(['west=w.snap', 'e.snap'], ['east', 'west'])).toEqual({ west: 'w.snap', east: 'e.snap' });
    expect(parseRestoreSpecs(['north=x.snap'], ['east'])).toEqual({ east: 'north=x.snap' });
    expect(() => parseRestoreSpecs(['a.snap', 'east=b.snap'], ['east'])).toThrow(/two snapshots/);
  });
});
