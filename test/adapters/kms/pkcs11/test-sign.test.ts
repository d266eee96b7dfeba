/** pkcs11 test/sign against a real SoftHSM2 token. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HASH_ALGORITHMS, type HashAlgorithm } from '../../../../src/adapters/kms/hash.js';
import { createKeyBackend } from '../../../../src/adapters/kms/signer.js';
import type { Pkcs11KeyConfig } from '../../../../src/adapters/kms/types.js';
import { loadModule } from '../../../../src/adapters/kms/pkcs11/module.js';
import { startSoftHsm, type SoftHsm } from '../../../support/softhsm.js';
import { instrumentSigning, rejection } from './helpers.js';

let hsm: SoftHsm;

beforeAll(async () => {
  hsm = await startSoftHsm([{ label: 'primary' }, { label: 'second', userPin: 'second-token-pin' }]);
  await hsm.createEcKey({ label: 'ec-p256', idHex: 'a1b2c3d4' });
  await hsm.createEcKey({ label: 'ec-p384', curve: 'P-384' });
  await hsm.createRsaKey({ label: 'rsa-2048', idHex: '0badc0de' });
  await hsm.createEcKey({ label: 'ec-nosign', sign: false });
  await hsm.createEcKey({ label: 'on-second', token: 'second' });
});

afterAll(async () => {
  await hsm?.cleanup();
});

function config(over: Partial<Pkcs11KeyConfig> = {}): Pkcs11KeyConfig {
  return { library: hsm.library, token_label: 'primary', pin: hsm.token.userPin, mechanism: '0x1041', key_label: 'ec-p256', ...over };
}

const testSign = (cfg: Pkcs11KeyConfig, opts = {}) => createKeyBackend('pkcs11', cfg).testSign(opts);

describe('EC keys (CKM_ECDSA)', () => {
  it.each(HASH_ALGORITHMS)('P-256 signs and verifies over %s', async (hash) => {
    await testSign(config(), { hashAlgorithm: hash });
  });

  it('P-384, found by slot number instead of token label', async () => {
    await testSign(config({ token_label: undefined, slot: hsm.token.slot, key_label: 'ec-p384' }), { hashAlgorithm: 'sha2-384' });
  });

  it('defaults to sha2-256 and ignores use_pss for EC', async () => {
    await testSign(config(), { usePss: true });
  });

  it('takes the token label with its blank padding', async () => {
    await testSign(config({ token_label: 'primary' + ' '.repeat(25) }));
  });
});

describe('RSA keys', () => {
  const rsa = (over: Partial<Pkcs11KeyConfig> = {}) => config({ mechanism: '0x0001', key_label: 'rsa-2048', ...over });

  it.each(HASH_ALGORITHMS)('PKCS#1 v1.5 (CKM_RSA_PKCS + DigestInfo) over %s', async (hash) => {
    await testSign(rsa(), { hashAlgorithm: hash });
  });

  const sha2: HashAlgorithm[] = ['sha1', 'sha2-224', 'sha2-256', 'sha2-384', 'sha2-512'];
  it.each(sha2)('PSS (CKM_RSA_PKCS_PSS) over %s', async (hash) => {
    await testSign(rsa({ mechanism: '0x000D' }), { hashAlgorithm: hash, usePss: true });
  });

  it.each(['sha3-256', 'sha3-512'] as HashAlgorithm[])('PSS over %s is unsupported by SoftHSM 2.6', async (hash) => {
    const err = await rejection(testSign(rsa({ mechanism: '0x000D' }), { hashAlgorithm: hash, usePss: true }));
    expect(err.code).toBe('unsupported');
    expect(err.message).toMatch(/CKR_ARGUMENTS_BAD|CKR_MECHANISM_PARAM_INVALID/);
  });

  it('a hashing mechanism (CKM_SHA256_RSA_PKCS) names the key family; signing stays raw', async () => {
    await testSign(rsa({ mechanism: '0x0040' }), { hashAlgorithm: 'sha2-512' });
  });
});

describe('finding the key', () => {
  it('by key_id as hex, with or without 0x', async () => {
    await testSign(config({ key_label: undefined, key_id: 'a1b2c3d4' }));
    await testSign(config({ key_label: undefined, key_id: '0x0BADC0DE', mechanism: '0x0001' }));
  });

  it('a missing key_id is an error even when generation is allowed', async () => {
    const err = await rejection(
      testSign(config({ key_label: undefined, key_id: 'ffff', allow_generate_key: true, curve: 'P256' })),
    );
    expect(err.code).toBe('not_found');
    expect(err.message).toContain('key_id "ffff"');
  });

  it('a missing label without allow_generate_key is forbidden, and nothing is created', async () => {
    const err = await rejection(testSign(config({ key_label: 'absent' })));
    expect(err.code).toBe('forbidden');
    expect(err.message).toMatch(/allow_generate_key/);
    expect(await hsm.countPrivateKeys('absent')).toBe(0);
  });

  it('a key on another token is not found through this token', async () => {
    const err = await rejection(testSign(config({ key_label: 'on-second' })));
    expect(err.code).toBe('forbidden');
    await testSign(config({ key_label: 'on-second', token_label: 'second', pin: 'second-token-pin' }));
  });

  it('a wrong token label', async () => {
    const err = await rejection(testSign(config({ token_label: 'nope' })));
    expect(err.code).toBe('not_found');
    expect(err.message).toContain('token "nope"');
  });

  it('a wrong slot number', async () => {
    const err = await rejection(testSign(config({ token_label: undefined, slot: '999999' })));
    expect(err.code).toBe('not_found');
  });
});

describe('key checks', () => {
  it('an EC mechanism with an RSA key is a spec mismatch', async () => {
    const err = await rejection(testSign(config({ key_label: 'rsa-2048' })));
    expect(err.code).toBe('spec');
    expect(err.message).toContain('CKM_ECDSA');
  });

  it('a key with CKA_SIGN false is refused', async () => {
    const err = await rejection(testSign(config({ key_label: 'ec-nosign' })));
    expect(err.code).toBe('usage');
  });

  it('usages without sign are refused before touching the HSM', async () => {
    const err = await rejection(testSign(config({ usages: 'encrypt,decrypt' })));
    expect(err.code).toBe('usage');
  });

  it('an unknown mechanism signs according to the key type', async () => {
    await testSign(config({ mechanism: '0x80000001' }));
  });
});

describe('login', () => {
  it('a wrong PIN', async () => {
    const err = await rejection(testSign(config({ pin: 'wrong-pin-123' })));
    expect(err.code).toBe('auth');
    expect(err.message).toContain('CKR_PIN_INCORRECT');
    expect(err.message).not.toContain('wrong-pin-123');
  });

  it('a wrong PIN is refused even while the token is logged in by a concurrent sign', async () => {
    const spy = instrumentSigning(loadModule(hsm.library).lib, 300);
    try {
      const good = testSign(config({ max_parallel: 4 }));
      // Wait until the good call is signing, i.e. logged in with its session open.
      while (spy.count() === 0) await new Promise((r) => setTimeout(r, 5));
      const err = await rejection(testSign(config({ pin: 'another-wrong-pin', key_label: 'ec-p384' })));
      expect(err.code).toBe('auth');
      await good;
    } finally {
      spy.restore();
    }
  });
});

describe('generation', () => {
  it('EC key generated on first use, reused afterwards (curve spelled prime256v1)', async () => {
    const cfg = config({ key_label: 'gen-ec', allow_generate_key: 'true', curve: 'prime256v1' });
    await testSign(cfg);
    await testSign(cfg, { hashAlgorithm: 'sha2-512' });
    expect(await hsm.countPrivateKeys('gen-ec')).toBe(1);
  });

  it('RSA key for CKM_RSA_PKCS_PSS with key_bits, signing PSS', async () => {
    const cfg = config({ key_label: 'gen-rsa', mechanism: '0x000D', allow_generate_key: true, key_bits: '2048' });
    await testSign(cfg, { usePss: true });
    expect(await hsm.countPrivateKeys('gen-rsa')).toBe(1);
  });

  it('RSA key for CKM_RSA_PKCS_OAEP', async () => {
    await testSign(config({ key_label: 'gen-oaep', mechanism: '0x0009', allow_generate_key: true, key_bits: 2048, usages: 'sign,verify,encrypt,decrypt' }));
  });

  it('allow_generate_key needs curve / key_bits', async () => {
    expect((await rejection(testSign(config({ key_label: 'x', allow_generate_key: true })))).code).toBe('config');
    expect((await rejection(testSign(config({ key_label: 'x', mechanism: '0x0001', allow_generate_key: true })))).code).toBe('config');
  });

  it('no generation for an unknown mechanism', async () => {
    const err = await rejection(testSign(config({ key_label: 'gen-unknown', mechanism: '0x80000001', allow_generate_key: true })));
    expect(err.code).toBe('unsupported');
  });
});

describe('sessions and parallelism', () => {
  it.each([1, 2, 3])('max_parallel=%i bounds the signatures in flight', async (limit) => {
    const spy = instrumentSigning(loadModule(hsm.library).lib, 60);
    try {
      const cfg = config({ max_parallel: limit });
      await Promise.all(Array.from({ length: 7 }, () => testSign(cfg)));
      expect(spy.count()).toBe(7);
      expect(spy.peak()).toBe(limit);
    } finally {
      spy.restore();
    }
  });

  it('a signature that does not verify is a verify error', async () => {
    const lib = loadModule(hsm.library).lib;
    // eslint-disable-next-line @typescript-eslint/unbound-method -- kept to restore, and called with apply(this)
    const original = lib.C_SignAsync;
    lib.C_SignAsync = async function (this: typeof lib, ...args: Parameters<typeof original>) {
      const sig = await original.apply(this, args);
      sig[0]! ^= 0xff;
      return sig;
    };
    try {
      expect((await rejection(testSign(config()))).code).toBe('verify');
      expect((await rejection(testSign(config({ mechanism: '0x0001', key_label: 'rsa-2048' })))).code).toBe('verify');
    } finally {
      lib.C_SignAsync = original;
    }
  });

  it('force_rw_session opens read-write sessions', async () => {
    const lib = loadModule(hsm.library).lib;
    // eslint-disable-next-line @typescript-eslint/unbound-method -- kept to restore, and called with call(this)
    const original = lib.C_OpenSession;
    const flags: number[] = [];
    lib.C_OpenSession = function (this: typeof lib, slot: Buffer, f: number) {
      flags.push(f);
      return original.call(this, slot, f);
    };
    try {
      await testSign(config({ force_rw_session: 'true' }));
      await testSign(config({ force_rw_session: false }));
    } finally {
      lib.C_OpenSession = original;
    }
    expect(flags).toEqual([0x6, 0x4]);
  });
});

describe('library', () => {
  it('a missing library is unavailable', async () => {
    const err = await rejection(testSign(config({ library: '/nonexistent/libpkcs11.so' })));
    expect(err.code).toBe('unavailable');
  });

  it('a kms_library name is resolved through the options', async () => {
    await createKeyBackend('pkcs11', config({ library: 'softhsm' }), { kmsLibraries: { softhsm: hsm.library } }).testSign();
    const err = await rejection(createKeyBackend('pkcs11', config({ library: 'unknown' })).testSign());
    expect(err.code).toBe('config');
  });
});
