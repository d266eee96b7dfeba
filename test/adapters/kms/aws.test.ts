/** provAkms test/sign against the loopback KMS fake (JSON 1.1 + SigV4). */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createKeyBackend } from '../../../src/adapters/kms/signer.js';
import type { AwsKmsKeyConfig, KeyBackendOptions, TestSignOptions } from '../../../src/adapters/kms/types.js';
import { DEFAULT_CREDENTIALS, startFakeAwsKms, type FakeAwsKms } from '../../fakes/aws-kms/server.js';
import { rejection } from './pkcs11/helpers.js';

let fake: FakeAwsKms;

beforeAll(async () => {
  fake = await startFakeAwsKms();
  fake.seedKey({ keySpec: 'ECC_NIST_P256', alias: 'alias/ec-signing' });
  fake.seedKey({ keySpec: 'RSA_2048', alias: 'alias/rsa-signing' });
  fake.seedKey({ keySpec: 'RSA_2048', keyUsage: 'ENCRYPT_DECRYPT', alias: 'alias/rsa-encrypt' });
  fake.seedKey({ keySpec: 'ECC_NIST_P384', alias: 'alias/ec-p384' });
  fake.seedKey({ keySpec: 'ECC_NIST_P256', keyState: 'Disabled', alias: 'alias/ec-disabled' });
});

afterAll(async () => {
  await fake?.stop();
});

function config(over: Partial<AwsKmsKeyConfig> = {}): AwsKmsKeyConfig {
  return {
    kms_key: 'alias/ec-signing',
    key_type: 'ECDSA',
    curve: 'P256',
    endpoint: fake.endpoint,
    access_key: DEFAULT_CREDENTIALS.accessKeyId,
    secret_key: DEFAULT_CREDENTIALS.secretAccessKey,
    ...over,
  };
}

const rsa = (over: Partial<AwsKmsKeyConfig> = {}) => config({ kms_key: 'alias/rsa-signing', key_type: 'RSA', key_bits: '2048', curve: undefined, ...over });

const testSign = (cfg: AwsKmsKeyConfig, opts: TestSignOptions = {}, options: KeyBackendOptions = {}) =>
  createKeyBackend('provAkms', cfg, options).testSign(opts);

describe('signing', () => {
  it('ECDSA P256 through an alias signs a DIGEST and verifies locally', async () => {
    const before = fake.calls.length;
    await testSign(config());
    const sign = fake.calls.slice(before).find((c) => c.operation === 'Sign')!;
    expect(sign.body).toMatchObject({ MessageType: 'DIGEST', SigningAlgorithm: 'ECDSA_SHA_256' });
    expect(fake.calls.slice(before).map((c) => c.operation)).toEqual(['DescribeKey', 'Sign', 'GetPublicKey']);
  });

  it('by key id and by key ARN', async () => {
    const key = fake.store.resolve('alias/ec-signing')!;
    await testSign(config({ kms_key: key.keyId }));
    await testSign(config({ kms_key: key.arn }));
  });

  it.each([
    ['sha2-256', false],
    ['sha2-384', false],
    ['sha2-512', true],
    ['sha2-256', true],
  ] as const)('RSA 2048 over %s, PSS %s', async (hash, usePss) => {
    await testSign(rsa(), { hashAlgorithm: hash, usePss });
  });

  it('P384 with sha2-384', async () => {
    await testSign(config({ kms_key: 'alias/ec-p384', curve: 'secp384r1' }), { hashAlgorithm: 'sha2-384' });
  });

  it.each(['sha1', 'sha2-224', 'sha3-256'] as const)('%s is unsupported', async (hash) => {
    expect((await rejection(testSign(config(), { hashAlgorithm: hash }))).code).toBe('unsupported');
  });

  it('P256 with sha2-384 is not among the key signing algorithms', async () => {
    const err = await rejection(testSign(config(), { hashAlgorithm: 'sha2-384' }));
    expect(err.code).toBe('unsupported');
    expect(err.message).toContain('ECDSA_SHA_384');
  });

  it('credentials from PROVA_ACCESS_KEY_ID / PROVA_SECRET_ACCESS_KEY', async () => {
    const env = { PROVA_ACCESS_KEY_ID: DEFAULT_CREDENTIALS.accessKeyId, PROVA_SECRET_ACCESS_KEY: DEFAULT_CREDENTIALS.secretAccessKey };
    await testSign(config({ access_key: undefined, secret_key: undefined }), {}, { env });
  });
});

describe('failures', () => {
  it('wrong usage (ENCRYPT_DECRYPT)', async () => {
    const err = await rejection(testSign(rsa({ kms_key: 'alias/rsa-encrypt' })));
    expect(err.code).toBe('usage');
    expect(err.message).toContain('ENCRYPT_DECRYPT');
  });

  it('wrong key spec: RSA key_bits and EC curve', async () => {
    const bits = await rejection(testSign(rsa({ key_bits: 3072 })));
    expect(bits.code).toBe('spec');
    expect(bits.message).toContain('RSA_3072');
    const curve = await rejection(testSign(config({ kms_key: 'alias/ec-p384' })));
    expect(curve.code).toBe('spec');
    const type = await rejection(testSign(rsa({ kms_key: 'alias/ec-signing' })));
    expect(type.code).toBe('spec');
  });

  it('a disabled key', async () => {
    const err = await rejection(testSign(config({ kms_key: 'alias/ec-disabled' })));
    expect(err.code).toBe('disabled');
  });

  it('a wrong secret key', async () => {
    const err = await rejection(testSign(config({ secret_key: 'not-the-right-secret-0123' })));
    expect(err.code).toBe('auth');
    expect(err.message).toContain('InvalidSignatureException');
    expect(err.message).not.toContain('not-the-right-secret-0123');
  });

  it('an unknown access key', async () => {
    const err = await rejection(testSign(config({ access_key: 'AKIAUNKNOWN000000000' })));
    expect(err.code).toBe('auth');
    expect(err.message).toContain('UnrecognizedClientException');
  });

  it('a missing alias without allow_generate_key is forbidden', async () => {
    const err = await rejection(testSign(config({ kms_key: 'alias/absent' })));
    expect(err.code).toBe('forbidden');
    expect(fake.store.aliases.has('alias/absent')).toBe(false);
  });

  it('a missing key id', async () => {
    const err = await rejection(testSign(config({ kms_key: '00000000-0000-0000-0000-000000000000' })));
    expect(err.code).toBe('forbidden');
  });

  it('an unreachable endpoint', async () => {
    const err = await rejection(testSign(config({ endpoint: 'http://127.0.0.1:1' }), {}, { aws: { maxAttempts: 1 } }));
    expect(err.code).toBe('unavailable');
  });

  it('a signature that does not verify with the public key', async () => {
    fake.store.faults.corruptSignatures = true;
    try {
      const err = await rejection(testSign(rsa()));
      expect(err.code).toBe('verify');
    } finally {
      fake.store.faults.corruptSignatures = false;
    }
  });

  it('config errors', async () => {
    const code = async (cfg: AwsKmsKeyConfig) => (await rejection(testSign(cfg))).code;
    expect(await code(config({ curve: undefined }))).toBe('config');
    expect(await code(rsa({ key_bits: 1024 }))).toBe('config');
    expect(await code(config({ key_type: 'DSA' }))).toBe('config');
    expect(await code(config({ secret_key: undefined }))).toBe('config');
  });
});

describe('generation', () => {
  it('creates a SIGN_VERIFY key and the alias when allowed, then reuses it', async () => {
    const cfg = config({ kms_key: 'alias/generated-ec', allow_generate_key: true, curve: 'P521' });
    await testSign(cfg, { hashAlgorithm: 'sha2-512' });
    await testSign(cfg, { hashAlgorithm: 'sha2-512' });
    const created = fake.calls.filter((c) => c.operation === 'CreateKey');
    expect(created).toHaveLength(1);
    expect(created[0]!.body).toMatchObject({ KeyUsage: 'SIGN_VERIFY', KeySpec: 'ECC_NIST_P521' });
    expect(fake.store.resolve('alias/generated-ec')?.keySpec).toBe('ECC_NIST_P521');
  });

  it('RSA 3072 generation', async () => {
    await testSign(rsa({ kms_key: 'alias/generated-rsa', key_bits: 3072, allow_generate_key: 'true' }), { usePss: true });
    expect(fake.store.resolve('alias/generated-rsa')?.keySpec).toBe('RSA_3072');
  });

  it('generation needs kms_key to be an alias', async () => {
    const err = await rejection(testSign(config({ kms_key: '1234abcd-12ab-34cd-56ef-1234567890ab', allow_generate_key: true })));
    expect(err.code).toBe('config');
  });
});
