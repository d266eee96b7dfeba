import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { decodeSnapshot, encodeSnapshot, SnapshotFormatError } from '../../../src/server/snapshots/format.js';
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

describe('snapshot file format', () => {
  it('round-trips the state, entries sorted by key, with the header', () => {
    const data = encodeSnapshot(state, cluster, new Date('2024-05-01T10:00:00Z'));
    const text = data.toString('utf8');
    expect(text.startsWith('LOCKSTEP-SNAPSHOT\n')).toBe(true);
    expect(text).toMatch(/\nsha256:[0-9a-f]{64}\n$/);
    const decoded = decodeSnapshot(data);
    expect(decoded.header).toEqual({
      format: 1,
      cluster_name: 'east',
      cluster_id: '5f0c-id',
      index: 42,
      entries: 3,
      created_at: '2024-05-01T10:00:00.000Z',
    });
    expect(decoded.entries).toEqual([...state.entries].sort((x, y) => (x[0] < y[0] ? -1 : 1)));
  });

  it('does not change its input', () => {
    const before = JSON.stringify(state);
    encodeSnapshot(state, cluster, new Date());
    expect(JSON.stringify(state)).toBe(before);
  });

  it('refuses a flipped byte, a truncated file, another file, a wrong entry count', () => {
    const data = encodeSnapshot(state, cluster, new Date());
    const flipped = Buffer.from(data);
    flipped[40] = flipped[40]! ^ 0x01;
    expect(() => decodeSnapshot(flipped)).toThrow(/checksum mismatch/);
    expect(() => decodeSnapshot(data.subarray(0, data.length - 10))).toThrow(/truncated/);
    expect(() => decodeSnapshot(data.subarray(0, data.length - 80))).toThrow(SnapshotFormatError);
    expect(() => decodeSnapshot(Buffer.from('{"hello":"world"}\n'))).toThrow(/not a lockstep snapshot/);
    expect(() => decodeSnapshot(Buffer.alloc(0))).toThrow(/not a lockstep snapshot/);

    // A consistent checksum over a lying header is still refused.
    const lying = encodeSnapshot(state, cluster, new Date()).toString('utf8').replace('"entries":3', '"entries":4');
    const body = lying.slice(0, lying.lastIndexOf('sha256:'));
    const resealed = Buffer.from(body + `sha256:${createHash('sha256').update(body).digest('hex')}\n`);
    expect(() => decodeSnapshot(resealed)).toThrow(/announces 4 entries but the file holds 3/);
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
