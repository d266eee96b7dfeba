/** provAkms managed keys over real HTTP, test/sign through the adapter against the loopback KMS fake (`endpoint` field). */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeAwsKms, type FakeAwsKms } from '../../fakes/aws-kms/server.js';
import { expectLoggedFailure, expectNoCanaries, expectRefused, expectSigned, startKeyServer, type KeyClient, type KeyServer } from './helpers.js';

const ACCESS_KEY = 'AKIACANARYTEST000001';
const SECRET_KEY = 'secret-key-canary-3c9d41';
const WRONG_SECRET = 'wrong-secret-canary-77e0';

let fake: FakeAwsKms;
let s: KeyServer;
let api: KeyClient;

beforeAll(async () => {
  fake = await startFakeAwsKms({ credentials: { [ACCESS_KEY]: SECRET_KEY } });
  fake.seedKey({ keySpec: 'ECC_NIST_P256', alias: 'alias/ec-signing' });
  fake.seedKey({ keySpec: 'RSA_2048', alias: 'alias/rsa-signing' });
  fake.seedKey({ keySpec: 'RSA_2048', keyUsage: 'ENCRYPT_DECRYPT', alias: 'alias/rsa-encrypt' });
  fake.seedKey({ keySpec: 'ECC_NIST_P256', keyState: 'Disabled', alias: 'alias/ec-disabled' });
  s = await startKeyServer({ keyBackends: { env: {}, aws: { maxAttempts: 1 } } });
  api = s.client();
});

afterAll(async () => {
  await s?.close();
  await fake?.stop();
});

const ec = (over: Record<string, unknown> = {}) => ({
  kms_key: 'alias/ec-signing',
  key_type: 'ecdsa',
  curve: 'P256',
  endpoint: fake.endpoint,
  access_key: ACCESS_KEY,
  secret_key: SECRET_KEY,
  ...over,
});
const rsa = (over: Record<string, unknown> = {}) => ec({ kms_key: 'alias/rsa-signing', key_type: 'RSA', key_bits: '2048', curve: undefined, ...over });

describe('test/sign', () => {
  it('ECDSA P256 (key_type in any case): signs a digest through the fake, verified locally', async () => {
    await api.putKey('provAkms', 'aws-ec', ec());
    const before = fake.calls.length;
    expectSigned(await api.testSign('provAkms', 'aws-ec'));
    expect(fake.calls.slice(before).map((c) => c.operation)).toEqual(['DescribeKey', 'Sign', 'GetPublicKey']);
  });

  it('RSA 2048, PKCS#1 v1.5 and PSS over the SHA-2 hashes', async () => {
    await api.putKey('provAkms', 'aws-rsa', rsa());
    for (const [hash, pss] of [['sha2-256', false], ['sha2-384', true], ['sha2-512', false]] as const) {
      expectSigned(await api.testSign('provAkms', 'aws-rsa', { hash_algorithm: hash, use_pss: pss }));
    }
  });

  it('a hash the service cannot sign is a 400', async () => {
    expectRefused(await api.testSign('provAkms', 'aws-rsa', { hash_algorithm: 'sha3-256' }), /sha3-256 is not supported/);
  });

  it('generates the key and its alias when allowed, then reuses it', async () => {
    await api.putKey('provAkms', 'aws-gen', ec({ kms_key: 'alias/generated', allow_generate_key: true, curve: 'P384' }));
    expectSigned(await api.testSign('provAkms', 'aws-gen', { hash_algorithm: 'sha2-384' }));
    expectSigned(await api.testSign('provAkms', 'aws-gen', { hash_algorithm: 'sha2-384' }));
    expect(fake.calls.filter((c) => c.operation === 'CreateKey')).toHaveLength(1);
    expect(fake.store.resolve('alias/generated')?.keySpec).toBe('ECC_NIST_P384');
  });
});

describe('failures', () => {
  it('wrong usage', async () => {
    await api.putKey('provAkms', 'aws-encrypt', rsa({ kms_key: 'alias/rsa-encrypt' }));
    expectRefused(await api.testSign('provAkms', 'aws-encrypt'), /usage ENCRYPT_DECRYPT, not SIGN_VERIFY/);
  });

  it('wrong key spec', async () => {
    await api.putKey('provAkms', 'aws-spec', rsa({ key_bits: '3072' }));
    expectRefused(await api.testSign('provAkms', 'aws-spec'), /key spec RSA_2048, but the configuration asks for RSA_3072/);
  });

  it('a disabled key', async () => {
    await api.putKey('provAkms', 'aws-disabled', ec({ kms_key: 'alias/ec-disabled' }));
    expectRefused(await api.testSign('provAkms', 'aws-disabled'), /is Disabled/);
  });

  it('bad credentials: a wrong secret key, without echoing it', async () => {
    await api.putKey('provAkms', 'aws-creds', ec({ secret_key: WRONG_SECRET }));
    expectRefused(await api.testSign('provAkms', 'aws-creds'), /InvalidSignatureException/);
    expectLoggedFailure(s, 'sys/managed-keys/provAkms/aws-creds');
  });

  it('a missing alias when generation is not allowed', async () => {
    await api.putKey('provAkms', 'aws-absent', ec({ kms_key: 'alias/absent' }));
    expectRefused(await api.testSign('provAkms', 'aws-absent'), /allow_generate_key is false/);
    expect(fake.store.aliases.has('alias/absent')).toBe(false);
  });

  it('an unreachable endpoint', async () => {
    await api.putKey('provAkms', 'aws-down', ec({ endpoint: 'http://127.0.0.1:1' }));
    expect((await api.testSign('provAkms', 'aws-down')).status).toBe(400);
  });
});

describe('read back', () => {
  it('every field, secret_key "redacted", access_key in clear, defaults filled', async () => {
    const read = await api.get('sys/managed-keys/provAkms/aws-rsa');
    expect(read.body.data).toEqual({
      name: 'aws-rsa',
      type: 'provAkms',
      UUID: expect.stringMatching(/^[0-9a-f-]{36}$/),
      allow_generate_key: false,
      allow_replace_key: false,
      allow_store_key: false,
      any_mount: false,
      usages: ['sign', 'verify'],
      access_key: ACCESS_KEY,
      secret_key: 'redacted',
      curve: '',
      endpoint: fake.endpoint,
      key_bits: '2048',
      key_type: 'RSA',
      kms_key: 'alias/rsa-signing',
      region: 'us-east-1',
    });
  });

  it('no secret key in any answer or log line', () => {
    expectNoCanaries(s, [SECRET_KEY, WRONG_SECRET]);
  });
});
