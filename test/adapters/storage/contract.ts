/**
 * The ObjectStore contract, run against every backend (local dir, s3rver, azurite, fake GCS):
 * round trips, listing, idempotent removal, and a full snapshot-retention cycle.
 */
import { randomBytes } from 'node:crypto';
import { expect, it } from 'vitest';
import {
  joinPrefix,
  retentionVictims,
  snapshotListPrefix,
  snapshotObjectName,
  snapshotObjects,
  StorageError,
  usedSpace,
  type ObjectStore,
} from '../../../src/adapters/storage/index.js';

export interface ContractTarget {
  store: ObjectStore;
  /** path_prefix of the configuration the store was opened with. */
  pathPrefix: string;
}

const FILE_PREFIX = 'vault-snapshot';

export function storeContract(target: () => ContractTarget): void {
  it('puts, lists, gets and removes an object', async () => {
    const { store, pathPrefix } = target();
    const name = joinPrefix(pathPrefix, `roundtrip-${randomBytes(4).toString('hex')}.bin`);
    const data = randomBytes(70_000);
    const before = Date.now();
    await store.put(name, data);
    const listed = (await store.list(joinPrefix(pathPrefix, 'roundtrip-'))).filter((o) => o.name === name);
    expect(listed).toHaveLength(1);
    expect(listed[0]!.size).toBe(data.length);
    expect(listed[0]!.modified).toBeInstanceOf(Date);
    // Second-resolution clocks on some services: allow a little slack.
    expect(listed[0]!.modified.getTime()).toBeGreaterThanOrEqual(before - 2000);
    expect((await store.get(name)).equals(data)).toBe(true);
    await store.remove(name);
    expect((await store.list(name)).map((o) => o.name)).not.toContain(name);
  });

  it('overwrites an existing object', async () => {
    const { store, pathPrefix } = target();
    const name = joinPrefix(pathPrefix, 'overwrite.bin');
    await store.put(name, Buffer.from('first'));
    await store.put(name, Buffer.from('second, longer'));
    expect((await store.get(name)).toString()).toBe('second, longer');
    await store.remove(name);
  });

  it('reports a missing object as not-found and removes it idempotently', async () => {
    const { store, pathPrefix } = target();
    const name = joinPrefix(pathPrefix, 'never-written.bin');
    const err = await store.get(name).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(StorageError);
    expect((err as StorageError).kind).toBe('not-found');
    await expect(store.remove(name)).resolves.toBeUndefined();
  });

  it('lists nothing for an unused prefix', async () => {
    const { store, pathPrefix } = target();
    expect(await store.list(joinPrefix(pathPrefix, 'nothing-here-'))).toEqual([]);
  });

  it('keeps exactly `retain` snapshots, newest by name, and touches nothing else', async () => {
    const { store, pathPrefix } = target();
    // Written out of timestamp order: the name decides, not the write time.
    const stamps = [1_700_000_000_000_000_300n, 1_700_000_000_000_000_100n, 1_700_000_000_000_000_500n, 1_700_000_000_000_000_200n, 1_700_000_000_000_000_400n];
    for (const ns of stamps) await store.put(snapshotObjectName(pathPrefix, FILE_PREFIX, ns), Buffer.from(`snap ${ns}`));
    const bystanders = [
      joinPrefix(pathPrefix, 'other-prefix-1.snap'),
      joinPrefix(pathPrefix, `${FILE_PREFIX}-extra-1.snap`),
      joinPrefix(pathPrefix, `${FILE_PREFIX}-notes.txt`),
      joinPrefix(pathPrefix, `${FILE_PREFIX}-1.snap.bak`),
      joinPrefix(pathPrefix, `${FILE_PREFIX}-dir/${FILE_PREFIX}-1.snap`),
    ];
    for (const b of bystanders) await store.put(b, Buffer.from('not a snapshot of this config'));

    const listed = await store.list(snapshotListPrefix(pathPrefix, FILE_PREFIX));
    const snaps = snapshotObjects(listed, FILE_PREFIX, pathPrefix);
    expect(snaps.map((s) => s.timestampNs)).toEqual([...stamps].sort());
    expect(usedSpace(snaps)).toBe(stamps.reduce((n, ns) => n + `snap ${ns}`.length, 0));

    const victims = retentionVictims(listed, FILE_PREFIX, 3, pathPrefix);
    expect(victims.map((v) => v.timestampNs)).toEqual([1_700_000_000_000_000_100n, 1_700_000_000_000_000_200n]);
    for (const v of victims) await store.remove(v.name);

    const after = await store.list(snapshotListPrefix(pathPrefix, FILE_PREFIX));
    const kept = snapshotObjects(after, FILE_PREFIX, pathPrefix).map((s) => s.timestampNs);
    expect(kept).toEqual([1_700_000_000_000_000_300n, 1_700_000_000_000_000_400n, 1_700_000_000_000_000_500n]);
    for (const b of bystanders.filter((b) => !b.endsWith('other-prefix-1.snap'))) {
      expect(after.map((o) => o.name)).toContain(b);
    }
    expect((await store.get(bystanders[0]!)).toString()).toBe('not a snapshot of this config');

    for (const o of [...after, ...(await store.list(joinPrefix(pathPrefix, 'other-')))]) await store.remove(o.name);
  });

  it('describes itself without secrets', () => {
    const { store } = target();
    expect(store.describe()).not.toMatch(/S3RVER|Eby8vdM|PRIVATE KEY/);
  });
}
