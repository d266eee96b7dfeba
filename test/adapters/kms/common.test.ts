/** Pure pieces shared by the backends: parsing, redaction, options from the environment. */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseCurve } from '../../../src/adapters/kms/curves.js';
import { KeyBackendError, redact } from '../../../src/adapters/kms/errors.js';
import { readPolicy } from '../../../src/adapters/kms/policy.js';
import { createKeyBackend, keyBackendOptionsFromEnv, parseTestSignRequest, secretValues } from '../../../src/adapters/kms/signer.js';
import { keyIdCandidates } from '../../../src/adapters/kms/pkcs11/keys.js';
import { describeMechanism, parseMechanism } from '../../../src/adapters/kms/pkcs11/mechanisms.js';
import { rejection } from './pkcs11/helpers.js';

describe('parsing', () => {
  it('curves in every usual spelling', () => {
    for (const s of ['P256', 'p-256', 'secp256r1', 'prime256v1', 'P_256']) expect(parseCurve('pkcs11', s)).toBe('P-256');
    expect(parseCurve('provAkms', 'secp521r1')).toBe('P-521');
    expect(() => parseCurve('pkcs11', 'secp256k1')).toThrow(KeyBackendError);
  });

  it('mechanisms as 0x-prefixed hex only', () => {
    expect(parseMechanism('0x1041')).toBe(0x1041);
    expect(parseMechanism('0X000d')).toBe(0xd);
    expect(() => parseMechanism('4161')).toThrow(/prefixed by 0x/);
    expect(describeMechanism(0x9)).toBe('CKM_RSA_PKCS_OAEP (0x0009)');
  });

  it('key ids: 0x-hex, hex then text, or text', () => {
    expect(keyIdCandidates('0xA1b2')).toEqual([Buffer.from([0xa1, 0xb2])]);
    expect(keyIdCandidates('a1b2')).toEqual([Buffer.from([0xa1, 0xb2]), Buffer.from('a1b2')]);
    expect(keyIdCandidates('key-1')).toEqual([Buffer.from('key-1')]);
    expect(keyIdCandidates('abc')).toEqual([Buffer.from('abc')]);
  });

  it('the test/sign request body', () => {
    expect(parseTestSignRequest('pkcs11', {})).toEqual({ hashAlgorithm: undefined, usePss: undefined });
    expect(parseTestSignRequest('pkcs11', { hash_algorithm: 'sha3-256', use_pss: 'true' })).toEqual({ hashAlgorithm: 'sha3-256', usePss: true });
    expect(() => parseTestSignRequest('provAkms', { hash_algorithm: 'md5' })).toThrow(/hash_algorithm/);
    expect(() => parseTestSignRequest('provAkms', { use_pss: 'maybe' })).toThrow(/use_pss/);
  });

  it('usages default to sign,verify; booleans as text', () => {
    expect(readPolicy('pkcs11', {})).toEqual({ allowGenerate: false, allowReplace: false, allowStore: false, usages: ['sign', 'verify'] });
    expect(readPolicy('pkcs11', { allow_generate_key: 'TRUE', usages: ['Sign', ' encrypt'] })).toMatchObject({ allowGenerate: true, usages: ['sign', 'encrypt'] });
  });
});

describe('secrets', () => {
  it('redact replaces every secret, longest first', () => {
    expect(redact('pin 1234 and 12345', ['1234', '12345'])).toBe('pin (sensitive) and (sensitive)');
    expect(redact('nothing', ['', 'x-y'])).toBe('nothing');
  });

  it('secretValues picks pin, secret_key, client_secret, credentials', () => {
    expect(secretValues({ pin: 'a', secret_key: 'b', client_secret: 'c', credentials: 'd', key_label: 'e' })).toEqual(['a', 'b', 'c', 'd']);
  });

  it('a config error never echoes a value', async () => {
    const err = await rejection(createKeyBackend('pkcs11', { library: '/x.so', token_label: 't', pin: 'pin-value', mechanism: '0x1041', key_label: 'k', max_parallel: 'pin-value' }).testSign());
    expect(err.code).toBe('config');
    expect(err.message).toBe('max_parallel must be an integer');
  });

  it('an unknown type is a config error', async () => {
    expect(() => createKeyBackend('nope' as never, {} as never)).toThrow(/unknown managed key type/);
  });
});

describe('options from the environment', () => {
  it('reads the override variables', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'lockstep-env-'));
    try {
      await writeFile(join(dir, 'ca.pem'), 'PEM');
      const opts = keyBackendOptionsFromEnv({
        LOCKSTEP_KMS_LIBRARIES: 'softhsm=/usr/lib/softhsm/libsofthsm2.so, other=/opt/x.so',
        LOCKSTEP_PROVB_AUTHORITY_HOST: 'https://localhost:8443',
        LOCKSTEP_PROVB_CA_FILE: join(dir, 'ca.pem'),
        LOCKSTEP_PROVC_KMS_ENDPOINT: 'http://127.0.0.1:9000',
      });
      expect(opts.kmsLibraries).toEqual({ softhsm: '/usr/lib/softhsm/libsofthsm2.so', other: '/opt/x.so' });
      expect(opts.azure).toEqual({ authorityHost: 'https://localhost:8443', caCerts: ['PEM'] });
      expect(opts.gcp).toEqual({ endpoint: 'http://127.0.0.1:9000' });
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('leaves everything default without them', () => {
    const opts = keyBackendOptionsFromEnv({});
    expect(opts.kmsLibraries).toEqual({});
    expect(opts.azure).toEqual({ authorityHost: undefined, caCerts: undefined });
    expect(opts.gcp).toEqual({ endpoint: undefined });
  });
});
