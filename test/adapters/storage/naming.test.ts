import { describe, expect, it } from 'vitest';
import {
  openObjectStore,
  probeObjectName,
  retentionVictims,
  snapshotListPrefix,
  snapshotObjectName,
  snapshotObjects,
  snapshotTimestamp,
  usedSpace,
  type ObjectInfo,
} from '../../../src/adapters/storage/index.js';

const at = new Date(0);
const obj = (name: string, size = 10): ObjectInfo => ({ name, size, modified: at });

describe('snapshotObjectName', () => {
  it('joins path_prefix with exactly one slash, with or without a trailing one', () => {
    expect(snapshotObjectName('/var/snaps', 'vault-snapshot', 123n)).toBe('/var/snaps/vault-snapshot-123.snap');
    expect(snapshotObjectName('/var/snaps/', 'vault-snapshot', 123n)).toBe('/var/snaps/vault-snapshot-123.snap');
    expect(snapshotObjectName('team/snaps//', 'raft', 1n)).toBe('team/snaps/raft-1.snap');
    expect(snapshotObjectName('/', 'raft', 1n)).toBe('/raft-1.snap');
    expect(snapshotObjectName('', 'raft', 1n)).toBe('raft-1.snap');
  });

  it('writes the full nanosecond value', () => {
    const ns = 1_732_230_000_123_456_789n;
    expect(snapshotObjectName('p/', 'f', ns)).toBe('p/f-1732230000123456789.snap');
    expect(snapshotTimestamp('p/f-1732230000123456789.snap', 'f')).toBe(ns);
  });

  it('gives the list prefix of a configuration', () => {
    expect(snapshotListPrefix('snaps/', 'vault-snapshot')).toBe('snaps/vault-snapshot');
  });
});

describe('snapshotTimestamp', () => {
  it('accepts only <file_prefix>-<digits>.snap as the last segment', () => {
    expect(snapshotTimestamp('a/b/vault-snapshot-42.snap', 'vault-snapshot')).toBe(42n);
    expect(snapshotTimestamp('vault-snapshot-42.snap', 'vault-snapshot')).toBe(42n);
    for (const bad of ['vault-snapshot-.snap', 'vault-snapshot-4a.snap', 'vault-snapshot-extra-1.snap', 'vault-snapshot-1.snap.tmp', 'x-vault-snapshot-1.snap', 'vault-snapshot1.snap', 'vault-snapshot-lockstep-probe-abc']) {
      expect(snapshotTimestamp(bad, 'vault-snapshot'), bad).toBeUndefined();
    }
  });

  it('treats regex characters in the file prefix literally', () => {
    expect(snapshotTimestamp('a.b+c-5.snap', 'a.b+c')).toBe(5n);
    expect(snapshotTimestamp('axb+c-5.snap', 'a.b+c')).toBeUndefined();
  });
});

describe('retentionVictims', () => {
  const names = [5n, 1n, 4n, 2n, 3n].map((n) => obj(`snaps/vault-snapshot-${n}.snap`));

  it('keeps exactly `retain`, deleting the oldest by the timestamp in the name', () => {
    expect(retentionVictims(names, 'vault-snapshot', 3, 'snaps/').map((v) => v.name)).toEqual([
      'snaps/vault-snapshot-1.snap',
      'snaps/vault-snapshot-2.snap',
    ]);
    expect(retentionVictims(names, 'vault-snapshot', 5)).toEqual([]);
    expect(retentionVictims(names, 'vault-snapshot', 10)).toEqual([]);
  });

  it('orders by the number, not the text (10 is newer than 9) nor the modification time', () => {
    const objs = [obj('vault-snapshot-10.snap'), { ...obj('vault-snapshot-9.snap'), modified: new Date(9e12) }];
    expect(retentionVictims(objs, 'vault-snapshot', 1).map((v) => v.name)).toEqual(['vault-snapshot-9.snap']);
  });

  it('never deletes the newest: retain below 1 counts as 1', () => {
    expect(retentionVictims(names, 'vault-snapshot', 0)).toHaveLength(4);
    expect(retentionVictims(names, 'vault-snapshot', Number.NaN)).toHaveLength(4);
  });

  it('considers only objects of this file_prefix (and, given path_prefix, directly under it)', () => {
    const mixed = [
      ...names,
      obj('snaps/other-1.snap'),
      obj('snaps/vault-snapshot-extra-0.snap'),
      obj('snaps/nested/vault-snapshot-0.snap'),
      obj('elsewhere/vault-snapshot-0.snap'),
      obj('snaps/vault-snapshot-0.snap.partial'),
    ];
    expect(retentionVictims(mixed, 'vault-snapshot', 4, 'snaps/').map((v) => v.name)).toEqual(['snaps/vault-snapshot-1.snap']);
    expect(retentionVictims(mixed, 'vault-snapshot', 4, 'snaps').map((v) => v.name)).toEqual(['snaps/vault-snapshot-1.snap']);
    // Without path_prefix, nested matches by last segment count too.
    expect(retentionVictims(mixed, 'vault-snapshot', 4)).toHaveLength(3);
  });
});

describe('usedSpace and snapshotObjects', () => {
  it('sums sizes; snapshotObjects filters to this configuration first', () => {
    const objs = [obj('d/vault-snapshot-1.snap', 100), obj('d/vault-snapshot-2.snap', 50), obj('d/other-1.snap', 1000)];
    expect(usedSpace(objs)).toBe(1150);
    expect(usedSpace(snapshotObjects(objs, 'vault-snapshot', 'd'))).toBe(150);
    expect(usedSpace([])).toBe(0);
  });
});

describe('probeObjectName', () => {
  it('sits beside the snapshots but can never be taken for one', () => {
    const name = probeObjectName('snaps/', 'vault-snapshot', 'abc123');
    expect(name).toBe('snaps/vault-snapshot-lockstep-probe-abc123');
    expect(snapshotTimestamp(name, 'vault-snapshot')).toBeUndefined();
  });
});

describe('openObjectStore', () => {
  it('refuses an unknown storage type and a local store without a directory', () => {
    expect(() => openObjectStore({ storage_type: 'ftp', path_prefix: 'x' })).toThrow(/unknown storage_type "ftp"/);
    expect(() => openObjectStore({ storage_type: 'local', path_prefix: '' })).toThrow(/path_prefix/);
  });
});
