/** provCckms test/sign against the loopback Cloud KMS REST fake. */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createKeyBackend } from '../../../src/adapters/kms/signer.js';
import type { GcpKmsKeyConfig, KeyBackendOptions, TestSignOptions } from '../../../src/adapters/kms/types.js';
import type { ServiceAccountFile } from '../../fakes/gcp-kms/auth.js';
import { startFakeGcpKms, type FakeGcpKms } from '../../fakes/gcp-kms/server.js';
import { rejection } from './pkcs11/helpers.js';

let fake: FakeGcpKms;
let dir: string;
let credentialsFile: string;
let account: ServiceAccountFile;
let options: KeyBackendOptions;
let ring: string;

beforeAll(async () => {
  fake = await startFakeGcpKms();
  options = { gcp: { endpoint: fake.endpoint }, env: {} };
  dir = await mkdtemp(join(tmpdir(), 'lockstep-gcp-test-'));
  account = fake.addServiceAccount();
  credentialsFile = join(dir, 'sa.json');
  await writeFile(credentialsFile, JSON.stringify(account));
  ring = fake.addKeyRing('fake-project', 'europe-west1', 'signing');
  fake.seedKey({ keyRing: ring, id: 'ec-p256', algorithm: 'EC_SIGN_P256_SHA256' });
  fake.seedKey({ keyRing: ring, id: 'rsa-pss', algorithm: 'RSA_SIGN_PSS_2048_SHA256', versions: 2 });
  fake.seedKey({ keyRing: ring, id: 'rsa-pkcs1', algorithm: 'RSA_SIGN_PKCS1_2048_SHA256' });
  fake.seedKey({ keyRing: ring, id: 'ec-disabled', algorithm: 'EC_SIGN_P256_SHA256', state: 'DISABLED' });
  fake.seedKey({ keyRing: ring, id: 'symmetric', purpose: 'ENCRYPT_DECRYPT', algorithm: 'GOOGLE_SYMMETRIC_ENCRYPTION' });
});

afterAll(async () => {
  await fake?.stop();
  if (dir) await rm(dir, { recursive: true, force: true });
});

function config(over: Partial<GcpKmsKeyConfig> = {}): GcpKmsKeyConfig {
  return {
    credentials: credentialsFile,
    project: 'fake-project',
    region: 'europe-west1',
    key_ring: 'signing',
    crypto_key: 'ec-p256',
    algorithm: 'EC_SIGN_P256_SHA256',
    ...over,
  };
}

const testSign = (cfg: GcpKmsKeyConfig, opts: TestSignOptions = {}, opt: KeyBackendOptions = options) =>
  createKeyBackend('provCckms', cfg, opt).testSign(opts);

describe('signing', () => {
  it('EC P256 with a service-account file (self-signed JWT), digest signing, local verify', async () => {
    const before = fake.calls.length;
    await testSign(config());
    expect(fake.calls.slice(before).map((c) => `${c.method} ${c.path.split('/cryptoKeys/')[1]}`)).toEqual([
      'GET ec-p256',
      'GET ec-p256/cryptoKeyVersions/1',
      'POST ec-p256/cryptoKeyVersions/1:asymmetricSign',
      'GET ec-p256/cryptoKeyVersions/1/publicKey',
    ]);
  });

  it('RSA PSS, version 2, use_pss and the matching hash given explicitly', async () => {
    await testSign(config({ crypto_key: 'rsa-pss', algorithm: 'RSA_SIGN_PSS_2048_SHA256', crypto_key_version: '2' }), { hashAlgorithm: 'sha2-256', usePss: true });
  });

  it('RSA PKCS#1 with the default (absent) hash and use_pss false', async () => {
    await testSign(config({ crypto_key: 'rsa-pkcs1', algorithm: 'RSA_SIGN_PKCS1_2048_SHA256' }), { usePss: false });
  });

  it('credentials given as JSON text, project and region from PROVC_PROJECT / PROVC_REGION', async () => {
    const env = { PROVC_PROJECT: 'fake-project', PROVC_REGION: 'europe-west1' };
    await testSign(config({ credentials: JSON.stringify(account), project: undefined, region: undefined }), {}, { ...options, env });
  });

  it('an explicit hash other than the algorithm one, or PSS on a PKCS#1 key, is unsupported', async () => {
    expect((await rejection(testSign(config(), { hashAlgorithm: 'sha2-384' }))).code).toBe('unsupported');
    const pss = await rejection(testSign(config({ crypto_key: 'rsa-pkcs1', algorithm: 'RSA_SIGN_PKCS1_2048_SHA256' }), { usePss: true }));
    expect(pss.code).toBe('unsupported');
  });
});

describe('failures', () => {
  it('algorithm different from the configured one', async () => {
    const err = await rejection(testSign(config({ algorithm: 'EC_SIGN_P384_SHA384' })));
    expect(err.code).toBe('spec');
    expect(err.message).toContain('EC_SIGN_P256_SHA256');
  });

  it('a disabled version', async () => {
    const err = await rejection(testSign(config({ crypto_key: 'ec-disabled' })));
    expect(err.code).toBe('disabled');
    expect(err.message).toContain('DISABLED');
  });

  it('a key that is not for signing', async () => {
    expect((await rejection(testSign(config({ crypto_key: 'symmetric' })))).code).toBe('usage');
  });

  it('a missing version', async () => {
    expect((await rejection(testSign(config({ crypto_key_version: '9' })))).code).toBe('not_found');
  });

  it('a missing key without allow_generate_key is forbidden', async () => {
    const err = await rejection(testSign(config({ crypto_key: 'absent' })));
    expect(err.code).toBe('forbidden');
  });

  it('credentials with a key the service does not know', async () => {
    const other = await startFakeGcpKms();
    try {
      const stranger = other.addServiceAccount();
      const err = await rejection(testSign(config({ credentials: JSON.stringify(stranger) })));
      expect(err.code).toBe('auth');
      expect(err.message).not.toContain(stranger.private_key.split('\n')[1]!);
    } finally {
      await other.stop();
    }
  });

  it('a credentials file that does not exist', async () => {
    const err = await rejection(testSign(config({ credentials: join(dir, 'missing.json') })));
    expect(err.code).toBe('auth');
    expect(err.message).toContain('ENOENT');
    expect(err.message).not.toContain('missing.json');
  });

  it('config errors', async () => {
    const code = async (cfg: GcpKmsKeyConfig) => (await rejection(testSign(cfg))).code;
    expect(await code(config({ algorithm: 'EC_SIGN_SECP256K1_SHA256' }))).toBe('config');
    expect(await code(config({ project: undefined }))).toBe('config');
    expect(await code(config({ crypto_key_version: 'latest' }))).toBe('config');
  });
});

describe('generation', () => {
  it('creates the crypto key with the algorithm when allowed, then reuses it', async () => {
    const cfg = config({ crypto_key: 'generated', algorithm: 'RSA_SIGN_PSS_3072_SHA256', allow_generate_key: true });
    await testSign(cfg);
    await testSign(cfg);
    const key = fake.store.keys.get(`${ring}/cryptoKeys/generated`)!;
    expect(key).toMatchObject({ purpose: 'ASYMMETRIC_SIGN', algorithm: 'RSA_SIGN_PSS_3072_SHA256' });
    expect(key.versions).toHaveLength(1);
  });

  it('the key ring must exist', async () => {
    const err = await rejection(testSign(config({ key_ring: 'absent-ring', crypto_key: 'x', allow_generate_key: true })));
    expect(err.code).toBe('not_found');
    expect(err.message).toContain('key ring');
  });
});
