/**
 * pkcs11 managed keys over real HTTP, with SoftHSM2 as the HSM: test/sign really signs random
 * data on the token and verifies the signature with the key's public key.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadModule } from '../../../src/adapters/kms/pkcs11/module.js';
import { startSoftHsm, type SoftHsm } from '../../support/softhsm.js';
import { instrumentSigning } from '../../adapters/kms/pkcs11/helpers.js';
import { expectLoggedFailure, expectNoCanaries, expectRefused, expectSigned, startKeyServer, type KeyClient, type KeyServer } from './helpers.js';

const PIN = 'pin-canary-5f1e77';
const WRONG_PIN = 'wrong-pin-canary-90ab';

let hsm: SoftHsm;
let s: KeyServer;
let api: KeyClient;

beforeAll(async () => {
  hsm = await startSoftHsm([{ label: 'lockstep-test', userPin: PIN }]);
  await hsm.createEcKey({ label: 'ec-p256' });
  await hsm.createEcKey({ label: 'ec-p384', curve: 'P-384' });
  await hsm.createRsaKey({ label: 'rsa-2048', idHex: '0a0b0c' });
  await hsm.createEcKey({ label: 'cannot-sign', sign: false });
  s = await startKeyServer({ kmsLibraries: { softhsm: hsm.library } });
  api = s.client();
});

afterAll(async () => {
  await s?.close();
  await hsm?.cleanup();
});

const ec = (over: Record<string, unknown> = {}) => ({
  library: 'softhsm',
  token_label: 'lockstep-test',
  pin: PIN,
  key_label: 'ec-p256',
  mechanism: '0x1041',
  ...over,
});

const rsa = (over: Record<string, unknown> = {}) => ec({ key_label: undefined, key_id: '0x0a0b0c', mechanism: '0x0001', ...over });

describe('test/sign with existing keys', () => {
  it('EC P-256 by token label and key label, over several hash algorithms', async () => {
    await api.putKey('pkcs11', 'ec-key', ec());
    expectSigned(await api.testSign('pkcs11', 'ec-key'));
    for (const hash of ['sha1', 'sha2-224', 'sha2-384', 'sha2-512', 'sha3-256', 'sha3-512']) {
      expectSigned(await api.testSign('pkcs11', 'ec-key', { hash_algorithm: hash }));
    }
  });

  it('EC P-384 by decimal slot', async () => {
    await api.putKey('pkcs11', 'ec-slot', ec({ token_label: undefined, slot: hsm.token.slot, key_label: 'ec-p384' }));
    expectSigned(await api.testSign('pkcs11', 'ec-slot', { hash_algorithm: 'sha2-384' }));
  });

  it('RSA by key_id, PKCS#1 v1.5 over several hashes', async () => {
    await api.putKey('pkcs11', 'rsa-key', rsa());
    for (const hash of ['sha2-256', 'sha1', 'sha2-512', 'sha3-384']) {
      expectSigned(await api.testSign('pkcs11', 'rsa-key', { hash_algorithm: hash, use_pss: false }));
    }
  });

  it('RSA PSS (use_pss as a boolean or as text)', async () => {
    expectSigned(await api.testSign('pkcs11', 'rsa-key', { use_pss: true }));
    expectSigned(await api.testSign('pkcs11', 'rsa-key', { use_pss: 'true', hash_algorithm: 'sha2-384' }));
    expectSigned(await api.testSign('pkcs11', 'rsa-key', { use_pss: true, hash_algorithm: 'sha2-512' }));
  });

  it('PSS over SHA-3 is refused by SoftHSM: a 400 with the backend reason', async () => {
    expectRefused(await api.testSign('pkcs11', 'rsa-key', { use_pss: true, hash_algorithm: 'sha3-256' }), /CKR_/);
  });

  it('an unknown hash_algorithm is a 400', async () => {
    expectRefused(await api.testSign('pkcs11', 'rsa-key', { hash_algorithm: 'md5' }), /hash_algorithm must be one of sha1, sha2-224/);
  });
});

describe('failures', () => {
  it('a wrong PIN', async () => {
    await api.putKey('pkcs11', 'wrong-pin', ec({ pin: WRONG_PIN }));
    expectRefused(await api.testSign('pkcs11', 'wrong-pin'), /CKR_PIN_INCORRECT/);
    expectLoggedFailure(s, 'sys/managed-keys/pkcs11/wrong-pin');
  });

  it('a key_id that names no key is an error, even with allow_generate_key', async () => {
    await api.putKey('pkcs11', 'missing-id', ec({ key_label: undefined, key_id: '0xdeadbeef', allow_generate_key: true, curve: 'P256' }));
    expectRefused(await api.testSign('pkcs11', 'missing-id'), /no private key with .*key ids are assigned by the HSM/);
  });

  it('a key that may not sign', async () => {
    await api.putKey('pkcs11', 'no-sign', ec({ key_label: 'cannot-sign' }));
    expectRefused(await api.testSign('pkcs11', 'no-sign'), /CKA_SIGN is false/);
  });

  it('usages without sign', async () => {
    await api.putKey('pkcs11', 'encrypt-only', ec({ usages: 'encrypt,decrypt' }));
    expectRefused(await api.testSign('pkcs11', 'encrypt-only'), /usages \(decrypt,encrypt\) do not include sign/);
  });

  it('an RSA mechanism for an EC key', async () => {
    await api.putKey('pkcs11', 'wrong-family', ec({ mechanism: '0x0001' }));
    expectRefused(await api.testSign('pkcs11', 'wrong-family'), /EC key but mechanism CKM_RSA_PKCS/);
  });

  it('a token label that names no token', async () => {
    await api.putKey('pkcs11', 'no-token', ec({ token_label: 'nope' }));
    expectRefused(await api.testSign('pkcs11', 'no-token'), /no such slot/);
  });

  it('test/sign of a key that does not exist is a 404', async () => {
    expect((await api.testSign('pkcs11', 'never-made')).status).toBe(404);
  });
});

describe('key generation', () => {
  it('is refused when allow_generate_key is false, and nothing is created', async () => {
    await api.putKey('pkcs11', 'absent', ec({ key_label: 'absent-key', curve: 'P256' }));
    expectRefused(await api.testSign('pkcs11', 'absent'), /not found, and generating it is forbidden \(allow_generate_key is false\)/);
    expect(await hsm.countPrivateKeys('absent-key')).toBe(0);
  });

  it('generates an EC key when allowed and none is found, then reuses it', async () => {
    await api.putKey('pkcs11', 'gen-ec', ec({ key_label: 'generated-ec', allow_generate_key: 'true', curve: 'P384' }));
    expectSigned(await api.testSign('pkcs11', 'gen-ec'));
    expect(await hsm.countPrivateKeys('generated-ec')).toBe(1);
    expectSigned(await api.testSign('pkcs11', 'gen-ec', { hash_algorithm: 'sha2-384' }));
    expect(await hsm.countPrivateKeys('generated-ec')).toBe(1);
  });

  it('generates an RSA key of key_bits, signing PSS and PKCS#1', async () => {
    await api.putKey('pkcs11', 'gen-rsa', ec({ key_label: 'generated-rsa', mechanism: '0x000d', allow_generate_key: true, key_bits: 2048 }));
    expectSigned(await api.testSign('pkcs11', 'gen-rsa', { use_pss: true }));
    expectSigned(await api.testSign('pkcs11', 'gen-rsa'));
    expect(await hsm.countPrivateKeys('generated-rsa')).toBe(1);
  });
});

describe('max_parallel', () => {
  it('bounds the signatures in flight for the key', async () => {
    const probe = instrumentSigning(loadModule(hsm.library).lib, 150);
    try {
      await api.putKey('pkcs11', 'parallel', ec({ max_parallel: 1 }));
      const burst = () => Promise.all(Array.from({ length: 4 }, () => api.testSign('pkcs11', 'parallel')));
      (await burst()).forEach(expectSigned);
      expect(probe.peak()).toBe(1);
      await api.putKey('pkcs11', 'parallel', { max_parallel: '3' });
      expect((await api.get('sys/managed-keys/pkcs11/parallel')).body.data.max_parallel).toBe(3);
      (await burst()).forEach(expectSigned);
      expect(probe.peak()).toBe(3);
    } finally {
      probe.restore();
    }
  });
});

describe('in a namespace', () => {
  it('test/sign works the same; a failure is logged with the namespace', async () => {
    const ns = s.client('team-a/hsm');
    await ns.putKey('pkcs11', 'ns-key', ec({ key_label: 'rsa-2048', mechanism: '0x0001' }));
    expectSigned(await ns.testSign('pkcs11', 'ns-key', { use_pss: true }));
    expect((await api.testSign('pkcs11', 'ns-key')).status).toBe(404);
    await ns.putKey('pkcs11', 'ns-wrong', ec({ pin: WRONG_PIN }));
    expectRefused(await ns.testSign('pkcs11', 'ns-wrong'), /CKR_PIN_INCORRECT/);
    expectLoggedFailure(s, 'team-a/hsm/sys/managed-keys/pkcs11/ns-wrong');
  });
});

describe('secrets', () => {
  it('the PIN reads back as "redacted" and never appears in any answer or log line', async () => {
    const read = await api.get('sys/managed-keys/pkcs11/ec-key');
    expect(read.body.data.pin).toBe('redacted');
    expectNoCanaries(s, [PIN, WRONG_PIN]);
  });
});
