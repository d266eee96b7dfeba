import { createCipheriv, randomBytes } from 'node:crypto';
import { appendFile, mkdtemp, readFile, rm, stat, truncate, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { Barrier } from '../../../src/server/storage/barrier.js';
import { CHAIN_START, recordAad } from '../../../src/server/storage/file-journal.js';
import { KvStore, type StoreEvent } from '../../../src/server/storage/kv-store.js';
import { decodeRecords, encodeRecord } from '../../../src/server/storage/record-codec.js';

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'lockstep-store-'));
});
afterEach(() => rm(dir, { recursive: true, force: true }));

const key = Barrier.newKey();
const barrier = new Barrier(key);
const open = async (options?: { compactAfterBytes?: number }) => (await KvStore.open({ dir, barrier }, options)).store;
const logFile = () => join(dir, 'store.log');

describe('KvStore in memory', () => {
  it('puts, gets, deletes, and numbers every change', async () => {
    const { store } = await KvStore.open();
    expect(store.index).toBe(0);
    await store.put('a', { v: 1 });
    await store.write([
      { key: 'b', value: 2 },
      { key: 'c', value: 'three' },
    ]);
    expect(store.index).toBe(3);
    expect(store.get('a')).toEqual({ v: 1 });
    await store.delete('a');
    expect(store.get('a')).toBeUndefined();
    expect(store.index).toBe(4);
    await store.delete('never-there'); // not a change
    expect(store.index).toBe(4);
  });

  it('lists direct children like the service, sub-folders with a slash', async () => {
    const { store } = await KvStore.open();
    for (const key of ['u/bob', 'u/alice', 'u/team/x', 'u/team/y', 'v/z', 'u0']) await store.put(key, 1);
    expect(store.list('u/')).toEqual(['alice', 'bob', 'team/']);
    expect(store.keysUnder('u/')).toEqual(['u/alice', 'u/bob', 'u/team/x', 'u/team/y']);
    expect(store.list('nothing/')).toEqual([]);
    await store.deletePrefix('u/team/');
    expect(store.list('u/')).toEqual(['alice', 'bob']);
  });

  it('freezes stored values', async () => {
    const { store } = await KvStore.open();
    await store.put('k', { list: [1] });
    expect(() => ((store.get('k') as any).list as number[]).push(2)).toThrow();
  });

  it('tells listeners about each change in index order, and about a replace', async () => {
    const { store } = await KvStore.open();
    const events: StoreEvent[] = [];
    const stop = store.onWrite((e) => events.push(e));
    await store.put('a', 1);
    await store.write([
      { key: 'a', value: null },
      { key: 'b', value: 2 },
    ]);
    await store.replaceAll([['x', 9]]);
    stop();
    await store.put('ignored', 1);
    expect(events).toEqual([
      { type: 'write', index: 1, key: 'a', value: 1 },
      { type: 'write', index: 2, key: 'a', value: null },
      { type: 'write', index: 3, key: 'b', value: 2 },
      { type: 'replace', index: 4 },
    ]);
    expect(store.entries()).toEqual([
      ['x', 9],
      ['ignored', 1],
    ]);
  });
});

describe('KvStore on disk', () => {
  it('finds everything again after a reopen, index included', async () => {
    const store = await open();
    await Promise.all(Array.from({ length: 50 }, (_, i) => store.put(`k${i}`, { i })));
    await store.delete('k7');
    await store.close();
    const again = await open();
    expect(again.index).toBe(51);
    expect(again.get('k49')).toEqual({ i: 49 });
    expect(again.get('k7')).toBeUndefined();
    expect(again.size).toBe(49);
    await again.close();
  });

  it('ignores a torn last record and keeps appending after the good ones', async () => {
    const store = await open();
    await store.put('a', 1);
    await store.put('b', 2);
    await store.close();
    const full = (await stat(logFile())).size;
    // A write cut short: the last record loses its end.
    await truncate(logFile(), full - 3);
    let again = await open();
    expect(again.get('a')).toBe(1);
    expect(again.get('b')).toBeUndefined();
    expect(again.index).toBe(1);
    await again.put('c', 3);
    await again.close();
    again = await open();
    expect(again.entries()).toEqual([
      ['a', 1],
      ['c', 3],
    ]);
    await again.close();
  });

  it('ignores a tail of garbage or zeroes, and a record with a bad checksum', async () => {
    const store = await open();
    await store.put('a', 1);
    await store.close();
    await appendFile(logFile(), Buffer.alloc(64)); // a file extended but never written
    const reopened = await open();
    expect(reopened.get('a')).toBe(1);
    await reopened.close();
    const record = encodeRecord(barrier.seal(Buffer.from(JSON.stringify({ i: 2, o: [['b', 2]] })), Buffer.alloc(0)));
    record[record.length - 1] = record[record.length - 1]! ^ 0xff;
    await appendFile(logFile(), record);
    const { store: again, droppedBytes } = await KvStore.open({ dir, barrier });
    expect(droppedBytes).toBe(record.length);
    expect(again.get('b')).toBeUndefined();
    await again.close();
  });

  it('compacts the log into a snapshot and loads the same state from it', async () => {
    const store = await open({ compactAfterBytes: 4096 });
    for (let i = 0; i < 300; i++) await store.put(`key${i % 20}`, { i, pad: 'x'.repeat(50) });
    await store.close();
    expect((await stat(logFile())).size).toBeLessThan(3 * 4096);
    const first = barrier.open(decodeRecords(await readFile(logFile())).payloads[0]!, recordAad(CHAIN_START))!.toString();
    expect(JSON.parse(first).s).toBeGreaterThan(0); // the file starts with a snapshot
    const again = await open();
    expect(again.index).toBe(300);
    expect(again.size).toBe(20);
    expect(again.get('key19')).toEqual({ i: 299, pad: 'x'.repeat(50) });
    await again.close();
  });

  it('persists replaceAll atomically with its index', async () => {
    const store = await open();
    await store.put('old', 1);
    await store.replaceAll([['new', { n: 1 }]], 100);
    await store.put('after', 2);
    await store.close();
    const again = await open();
    expect(again.entries()).toEqual([
      ['new', { n: 1 }],
      ['after', 2],
    ]);
    expect(again.index).toBe(101);
    await again.close();
  });

  it('ignores a leftover temporary file of an interrupted compaction', async () => {
    const store = await open();
    await store.put('a', 1);
    await store.close();
    await writeFile(`${logFile()}.tmp`, 'half a snapshot');
    const again = await open();
    expect(again.get('a')).toBe(1);
    await again.close();
  });
});

describe('KvStore on disk is sealed', () => {
  const CANARY = 'canary-bindpass-7f3e9a';

  it('never holds a value in clear, through appends and compactions', async () => {
    const store = await open({ compactAfterBytes: 2048 });
    for (let i = 0; i < 100; i++) await store.put(`auth/ldap/config${i % 7}`, { bindpass: `${CANARY}-${i}`, url: 'ldaps://dir.example.com' });
    await store.close();
    const raw = await readFile(logFile());
    expect(raw.includes(CANARY)).toBe(false);
    expect(raw.includes('ldaps://')).toBe(false);
    expect(raw.includes('auth/ldap')).toBe(false);
    const again = await open();
    expect(again.get('auth/ldap/config1')).toEqual({ bindpass: `${CANARY}-99`, url: 'ldaps://dir.example.com' });
    await again.close();
  });

  it('refuses to start on a log sealed with another key, rather than dropping it as torn', async () => {
    const store = await open();
    await store.put('a', 1);
    await store.close();
    await expect(KvStore.open({ dir, barrier: new Barrier(Barrier.newKey()) })).rejects.toThrow(/store\.log: record 1 does not open at its place in the log: .*or it was sealed with another cluster's storage key/);
  });

  it('#13.11: refuses a log of an earlier version (records in clear, or sealed without AAD), naming the file', async () => {
    const clear = encodeRecord(Buffer.from(JSON.stringify({ i: 1, o: [['a', { secret: CANARY }]] })));
    await writeFile(logFile(), clear);
    await expect(open()).rejects.toThrow(`${logFile()} was written by an earlier version of lockstep (records in clear); this version does not read it`);
    // Version 0x01: AES-256-GCM with the same key, but no AAD.
    const nonce = randomBytes(12);
    const cipher = createCipheriv('aes-256-gcm', key, nonce);
    const body = Buffer.concat([cipher.update(JSON.stringify({ i: 1, o: [['a', 1]] })), cipher.final()]);
    await writeFile(logFile(), encodeRecord(Buffer.concat([Buffer.from([0x01]), nonce, body, cipher.getAuthTag()])));
    await expect(open()).rejects.toThrow(/store\.log was written by an earlier version of lockstep \(records not bound to their place in the log\)/);
  });
});

/**
 * #13.11: as the real barrier binds each entry to its storage path (hashicorp/vault
 * vault/barrier_aes_gcm.go, AESGCMVersion2: the path is the AEAD's additional data), each record
 * of the log is bound to its place: the digest of the sealed record before it is its AAD.
 */
describe('#13.11 sealed records are bound to their place in the log', () => {
  async function writeThree(): Promise<Buffer[]> {
    const store = await open();
    await store.put('role', 'reader');
    await store.put('role', 'admin');
    await store.put('other', 1);
    await store.close();
    const { payloads, validLength } = decodeRecords(await readFile(logFile()));
    expect(payloads).toHaveLength(3);
    expect(validLength).toBe((await stat(logFile())).size);
    return payloads.map((p) => Buffer.from(p));
  }

  it('#13.11: two records whose sealed bytes are swapped are refused on read, with the file and the record named', async () => {
    const [first, second, third] = await writeThree();
    // Framed again with correct checksums: only the order of the sealed records changed.
    await writeFile(logFile(), Buffer.concat([second!, first!, third!].map(encodeRecord)));
    await expect(open()).rejects.toThrow(`${logFile()}: record 1 does not open at its place in the log: records were swapped, removed or copied in from another log`);
    await writeFile(logFile(), Buffer.concat([first!, third!, second!].map(encodeRecord)));
    await expect(open()).rejects.toThrow(`${logFile()}: record 2 does not open at its place in the log`);
  });

  it('#13.11: a record removed from the middle, repeated, or copied in from another log is refused', async () => {
    const [first, second, third] = await writeThree();
    await writeFile(logFile(), Buffer.concat([first!, third!].map(encodeRecord)));
    await expect(open()).rejects.toThrow(/record 2 does not open at its place in the log/);
    await writeFile(logFile(), Buffer.concat([first!, second!, second!, third!].map(encodeRecord)));
    await expect(open()).rejects.toThrow(/record 3 does not open at its place in the log/);
    // Another log of the same cluster (same storage key): its records open only in their own log.
    await rm(logFile());
    const other = await open();
    await other.put('role', 'root');
    await other.close();
    const [foreign] = decodeRecords(await readFile(logFile())).payloads;
    await writeFile(logFile(), Buffer.concat([first!, second!, Buffer.from(foreign!)].map(encodeRecord)));
    // The foreign record is the first of its log: at place 3 of this one it does not open.
    await expect(open()).rejects.toThrow(/record 3 does not open at its place in the log/);
  });

  it('#13.11: still opens its own records in order, through appends, a compaction and a reopen', async () => {
    const store = await open({ compactAfterBytes: 1024 });
    for (let i = 0; i < 60; i++) await store.put(`k${i % 5}`, { i, pad: 'x'.repeat(40) });
    await store.close();
    const again = await open({ compactAfterBytes: 1024 });
    expect(again.get('k4')).toEqual({ i: 59, pad: 'x'.repeat(40) });
    await again.put('k0', 'last');
    await again.close();
    const last = await open();
    expect(last.get('k0')).toBe('last');
    expect(last.index).toBe(61);
    await last.close();
  });
});

describe('Barrier', () => {
  it('opens what it sealed for the same AAD, and nothing sealed with another key, for another AAD, or altered', () => {
    const aad = Buffer.from('place 1');
    const sealed = barrier.seal(Buffer.from('hello'), aad);
    expect(barrier.open(sealed, aad)!.toString()).toBe('hello');
    expect(barrier.open(sealed, Buffer.from('place 2'))).toBeUndefined();
    expect(new Barrier(Barrier.newKey()).open(sealed, aad)).toBeUndefined();
    const altered = Buffer.from(sealed);
    altered[altered.length - 20] = altered[altered.length - 20]! ^ 1;
    expect(barrier.open(altered, aad)).toBeUndefined();
    expect(barrier.open(Buffer.from('{"i":1}'), aad)).toBeUndefined();
    // A fresh nonce each time: the same text never seals to the same bytes.
    expect(barrier.seal(Buffer.from('hello'), aad).equals(sealed)).toBe(false);
  });
});
