import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GCS_RESUMABLE_THRESHOLD, openObjectStore, StorageError, type SnapshotStorageConfig } from '../../../src/adapters/storage/index.js';
import { startFakeGcs, type FakeGcs } from '../../fakes/gcs/server.js';
import { fakeServiceAccountKey } from '../../fakes/gcs/service-account.js';
import { storeContract, type ContractTarget } from './contract.js';

let gcs: FakeGcs;
beforeAll(async () => {
  gcs = await startFakeGcs({ buckets: ['snapshots'] });
});
afterAll(async () => {
  await gcs?.stop();
});

function config(overrides: Partial<SnapshotStorageConfig> = {}): SnapshotStorageConfig {
  return {
    storage_type: 'provC-gcs',
    path_prefix: 'team/snaps/',
    provC_gcs_bucket: 'snapshots',
    provC_endpoint: gcs.endpoint,
    ...overrides,
  };
}

describe('gcs store: contract against the fake (no key: SDK auth)', () => {
  let target: ContractTarget;
  beforeAll(() => {
    target = { store: openObjectStore(config()), pathPrefix: 'team/snaps/' };
  });
  storeContract(() => target);
});

describe('gcs store: contract against the fake (service-account key)', () => {
  let target: ContractTarget;
  beforeAll(() => {
    target = { store: openObjectStore(config({ path_prefix: 'keyed/', provC_service_account_key: fakeServiceAccountKey() })), pathPrefix: 'keyed/' };
  });
  storeContract(() => target);
});

describe('gcs store', () => {
  it('uploads small objects in one multipart request and large ones resumably', async () => {
    const store = openObjectStore(config());
    gcs.requests.length = 0;
    await store.put('team/snaps/small.snap', Buffer.from('small'));
    const big = randomBytes(GCS_RESUMABLE_THRESHOLD + 4096);
    await store.put('team/snaps/big.snap', big);
    const types = gcs.requests.filter((r) => r.method === 'POST').map((r) => r.query.uploadType);
    expect(types).toEqual(['multipart', 'resumable']);
    expect((await store.get('team/snaps/big.snap')).equals(big)).toBe(true);
    await store.remove('team/snaps/small.snap');
    await store.remove('team/snaps/big.snap');
  });

  it('lists across pages', async () => {
    const paged = await startFakeGcs({ buckets: ['b'], pageSize: 2 });
    try {
      const store = openObjectStore(config({ provC_endpoint: paged.endpoint, provC_gcs_bucket: 'b' }));
      for (let i = 0; i < 5; i++) await store.put(`team/snaps/vault-snapshot-${i}.snap`, Buffer.from(String(i)));
      expect((await store.list('team/snaps/')).map((o) => o.name).sort()).toHaveLength(5);
    } finally {
      await paged.stop();
    }
  });

  it('adds http to a bare endpoint with provC_disable_tls', async () => {
    const bare = gcs.endpoint.replace('http://', '');
    const store = openObjectStore(config({ provC_endpoint: bare, provC_disable_tls: true }));
    expect(store.describe()).toBe(`gs://snapshots/team/snaps/ (endpoint ${gcs.endpoint})`);
    await store.put('team/snaps/bare.snap', Buffer.from('x'));
    await store.remove('team/snaps/bare.snap');
  });

  it('classifies refused writes as access-denied and a missing bucket as not-found', async () => {
    const store = openObjectStore(config(), { attempts: 1 });
    gcs.failWrites = true;
    try {
      await expect(store.put('team/snaps/x.snap', Buffer.from('x'))).rejects.toMatchObject({ kind: 'access-denied' });
    } finally {
      gcs.failWrites = false;
    }
    const missing = openObjectStore(config({ provC_gcs_bucket: 'no-such-bucket' }), { attempts: 1 });
    await expect(missing.put('team/snaps/x.snap', Buffer.from('x'))).rejects.toMatchObject({ kind: 'not-found' });
  });

  it('refuses a key that is not JSON without quoting it', () => {
    const key = '{"private_key": "-----BEGIN PRIVATE KEY-----\\nsecret-material'; // truncated JSON
    let err: unknown;
    try {
      openObjectStore(config({ provC_service_account_key: key }));
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(StorageError);
    expect((err as Error).message).toBe('provC_service_account_key is not valid JSON');
    expect(() => openObjectStore(config({ provC_service_account_key: '{"type":"service_account"}' }))).toThrow(/client_email or private_key/);
  });

  it('describes bucket, prefix and endpoint only', () => {
    const key = fakeServiceAccountKey();
    const store = openObjectStore(config({ provC_service_account_key: key }));
    expect(store.describe()).toBe(`gs://snapshots/team/snaps/ (endpoint ${gcs.endpoint})`);
    expect(store.urlOf('team/snaps/a.snap')).toBe('gs://snapshots/team/snaps/a.snap');
  });
});
