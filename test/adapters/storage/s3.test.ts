import { GetObjectCommand, HeadObjectCommand } from '@aws-sdk/client-s3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openObjectStore, S3Store, StorageError } from '../../../src/adapters/storage/index.js';
import { startS3rver, type S3rver } from '../../support/s3rver.js';
import { storeContract, type ContractTarget } from './contract.js';

let s3: S3rver;
beforeAll(async () => {
  s3 = await startS3rver({ bucket: 'snapshots' });
});
afterAll(async () => {
  await s3?.stop();
});

describe('s3 store: contract against s3rver (prefix without trailing slash)', () => {
  let target: ContractTarget;
  beforeAll(() => {
    target = { store: openObjectStore(s3.config({ path_prefix: 'cluster-a' })), pathPrefix: 'cluster-a' };
  });
  storeContract(() => target);
});

describe('s3 store: contract against s3rver (prefix with trailing slash)', () => {
  let target: ContractTarget;
  beforeAll(() => {
    target = { store: openObjectStore(s3.config({ path_prefix: 'cluster-b/' })), pathPrefix: 'cluster-b/' };
  });
  storeContract(() => target);
});

describe('s3 store', () => {
  it('stores the bytes unaltered (flexible checksums off)', async () => {
    const store = openObjectStore(s3.config());
    const data = Buffer.from('exact bytes\n'.repeat(1000));
    await store.put('snapshots/exact.snap', data);
    const c = s3.client();
    const res = await c.send(new GetObjectCommand({ Bucket: 'snapshots', Key: 'snapshots/exact.snap' }));
    expect(Buffer.from(await res.Body!.transformToByteArray()).equals(data)).toBe(true);
    c.destroy();
  });

  it('accepts SSE AES256 and SSE-KMS with a key id', async () => {
    const aes = openObjectStore(s3.config({ provA_s3_server_side_encryption: true }));
    await aes.put('snapshots/aes.snap', Buffer.from('a'));
    const kms = openObjectStore(s3.config({ provA_s3_enable_kms: 'true', provA_s3_kms_key: 'alias/snapshots' }));
    await kms.put('snapshots/kms.snap', Buffer.from('k'));
    const c = s3.client();
    const head = await c.send(new HeadObjectCommand({ Bucket: 'snapshots', Key: 'snapshots/aes.snap' }));
    expect(head.ContentLength).toBe(1);
    c.destroy();
    expect((await kms.get('snapshots/kms.snap')).toString()).toBe('k');
  });

  it('refuses SSE together with KMS, as the spec says', () => {
    expect(() => openObjectStore(s3.config({ provA_s3_server_side_encryption: true, provA_s3_enable_kms: true }))).toThrow(
      /cannot be combined/,
    );
  });

  it('needs bucket and region, and access key id and secret together', () => {
    expect(() => openObjectStore(s3.config({ provA_s3_bucket: '' }))).toThrow(/provA_s3_bucket/);
    expect(() => openObjectStore(s3.config({ provA_s3_region: undefined }))).toThrow(/provA_s3_region/);
    expect(() => openObjectStore(s3.config({ provA_secret_access_key: undefined }))).toThrow(/together/);
  });

  it('uses the SDK default credential chain when no keys are given', async () => {
    const saved = { id: process.env.AWS_ACCESS_KEY_ID, secret: process.env.AWS_SECRET_ACCESS_KEY };
    process.env.AWS_ACCESS_KEY_ID = 'S3RVER';
    process.env.AWS_SECRET_ACCESS_KEY = 'S3RVER';
    try {
      const store = openObjectStore(s3.config({ provA_access_key_id: undefined, provA_secret_access_key: undefined }));
      await store.put('snapshots/env-creds.snap', Buffer.from('e'));
      expect((await store.get('snapshots/env-creds.snap')).toString()).toBe('e');
    } finally {
      restore('AWS_ACCESS_KEY_ID', saved.id);
      restore('AWS_SECRET_ACCESS_KEY', saved.secret);
    }
  });

  it('classifies an unknown access key as access-denied and a missing bucket as not-found', async () => {
    const wrongKey = openObjectStore(s3.config({ provA_access_key_id: 'NOT-A-KEY' }), { attempts: 1 });
    await expect(wrongKey.put('snapshots/x', Buffer.from('x'))).rejects.toMatchObject({ kind: 'access-denied' });
    const noBucket = openObjectStore(s3.config({ provA_s3_bucket: 'no-such-bucket' }), { attempts: 1 });
    const err = await noBucket.put('snapshots/x', Buffer.from('x')).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(StorageError);
    expect(err).toMatchObject({ kind: 'not-found' });
    expect((err as Error).message).toMatch(/NoSuchBucket|does not exist/);
  });

  it('classifies an unreachable endpoint as unavailable', async () => {
    const store = openObjectStore(s3.config({ provA_s3_endpoint: 'http://127.0.0.1:1' }), { attempts: 1, timeoutMs: 2000 });
    await expect(store.list('snapshots/')).rejects.toMatchObject({ kind: 'unavailable' });
  });

  it('describes bucket, prefix and endpoint, never credentials', () => {
    const store = openObjectStore(s3.config({ provA_s3_endpoint: `http://user:pw@127.0.0.1:${s3.port}/?token=x` }));
    expect(store.describe()).toBe(`s3://snapshots/snapshots/ (endpoint http://127.0.0.1:${s3.port})`);
    const native = new S3Store({ storage_type: 'provA-s3', path_prefix: 'p', provA_s3_bucket: 'b', provA_s3_region: 'eu-west-1' });
    expect(native.describe()).toBe('s3://b/p (region eu-west-1)');
    expect(native.urlOf('p/vault-snapshot-1.snap')).toBe('s3://b/p/vault-snapshot-1.snap');
  });

  it('adds a scheme to a bare endpoint: http with provA_s3_disable_tls', async () => {
    const store = openObjectStore(s3.config({ provA_s3_endpoint: `127.0.0.1:${s3.port}`, provA_s3_disable_tls: true }));
    expect(store.describe()).toContain(`(endpoint http://127.0.0.1:${s3.port})`);
    await store.put('snapshots/bare.snap', Buffer.from('b'));
  });
});

function restore(name: string, value: string | undefined): void {
  if (value === undefined) delete process.env[name];
  else process.env[name] = value;
}
