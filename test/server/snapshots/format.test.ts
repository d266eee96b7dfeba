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

const material = newKeyMaterial({ shares: 3, threshold: 2 });
const key = snapshotKeyOf(material.root_key);

/** A format 1 file, as earlier versions wrote it: the entry lines in clear. */
function clearSnapshot(entryLines: string[], entries = entryLines.length): Buffer {
  const header = { format: 1, cluster_name: 'east', cluster_id: '5f0c-id', index: 42, entries, created_at: '2024-05-01T10:00:00.000Z' };
  const body = ['LOCKSTEP-SNAPSHOT', JSON.stringify(header), ...entryLines].join('\n') + '\n';
  return Buffer.from(body + `sha256:${createHash('sha256').update(body).digest('hex')}\n`);
}

describe('snapshot file format', () => {
  it('round-trips the state, entries sorted by key, with the header', () => {
    const data = encodeSnapshot(state, cluster, new Date('2024-05-01T10:00:00Z'), key);
    const text = data.toString('utf8');
    expect(text.startsWith('LOCKSTEP-SNAPSHOT\n')).toBe(true);
    expect(text).toMatch(/\nsha256:[0-9a-f]{64}\n$/);
    const decoded = decodeSnapshot(data, [key]);
    expect(decoded.header).toEqual({
      format: 2,
      cluster_name: 'east',
      cluster_id: '5f0c-id',
      index: 42,
      entries: 3,
      created_at: '2024-05-01T10:00:00.000Z',
      key_id: key.id,
    });
    expect(decoded.entries).toEqual([...state.entries].sort((x, y) => (x[0] < y[0] ? -1 : 1)));
  });

  it('seals the entries: no key, no value in the file, and only the root key (or its shares) opens it', () => {
    const data = encodeSnapshot(state, cluster, new Date(), key);
    for (const text of ['plain', 'line one', 'a/key', 'ünïcode']) expect(data.includes(text), text).toBe(false);
    expect(() => decodeSnapshot(data, [])).toThrow(SnapshotKeyError);
    expect(() => decodeSnapshot(data, [snapshotKeyOf(newKeyMaterial().root_key)])).toThrow(/sealed with the root key of cluster "east" \(key id [0-9a-f]{16}\)/);
    const fromShares = snapshotKeyFromShares([material.key_shares[2]!, material.key_shares[0]!])!;
    expect(fromShares.id).toBe(key.id);
    expect(decodeSnapshot(data, [fromShares]).entries).toHaveLength(3);
    expect(snapshotKeyFromShares(['zz not a share'])).toBeUndefined();
  });

  it('still reads a format 1 snapshot (entries in clear) without a key', () => {
    const decoded = decodeSnapshot(clearSnapshot(['["a/key","plain"]', '["b/key",{"n":1}]']), []);
    expect(decoded.header.format).toBe(1);
    expect(decoded.entries).toEqual([
      ['a/key', 'plain'],
      ['b/key', { n: 1 }],
    ]);
    expect(() => decodeSnapshot(clearSnapshot(['["a/key","plain"]'], 2), [])).toThrow(/announces 2 entries but the file holds 1/);
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
    const lying = encodeSnapshot(state, cluster, new Date(), key).toString('utf8').replace('"entries":3', '"entries":4');
    const body = lying.slice(0, lying.lastIndexOf('sha256:'));
    const resealed = Buffer.from(body + `sha256:${createHash('sha256').update(body).digest('hex')}\n`);
    expect(() => decodeSnapshot(resealed, [key])).toThrow(/announces 4 entries but the file holds 3/);
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
