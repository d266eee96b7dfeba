/** checkManagedKeyBackend for pkcs11, against a real SoftHSM2 token. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkManagedKeyBackend, type Finding } from '../../../src/check/managed-keys/index.js';
import { Secret } from '../../../src/core/secret.js';
import { startSoftHsm, type SoftHsm } from '../../support/softhsm.js';

let hsm: SoftHsm;

beforeAll(async () => {
  hsm = await startSoftHsm([{ label: 'check-token' }]);
  await hsm.createEcKey({ label: 'ec', idHex: '01020304' });
  await hsm.createRsaKey({ label: 'rsa' });
  await hsm.createEcKey({ label: 'no-sign', sign: false });
});

afterAll(async () => {
  await hsm?.cleanup();
});

const config = (over: Record<string, unknown> = {}) => ({
  library: hsm.library,
  token_label: 'check-token',
  pin: hsm.token.userPin,
  mechanism: '0x1041',
  key_label: 'ec',
  ...over,
});

const subjects = (fs: Finding[]) => fs.map((f) => `${f.ok ? 'ok' : 'FAIL'} ${f.subject}`);
const last = (fs: Finding[]) => fs.at(-1)!;

describe('pkcs11 check', () => {
  it('every step passes for a usable EC key', async () => {
    const fs = await checkManagedKeyBackend('pkcs11', config());
    expect(subjects(fs)).toEqual([
      'ok configuration',
      `ok library ${hsm.library}`,
      'ok token "check-token"',
      'ok login',
      'ok key_label "ec"',
      'ok key attributes',
      'ok mechanism CKM_ECDSA (0x1041)',
      'ok public key',
    ]);
    expect(fs[2]!.message).toContain(`slot ${hsm.token.slot}`);
  });

  it('an RSA key by slot number and key_id; the PIN as a Secret', async () => {
    const fs = await checkManagedKeyBackend('pkcs11', config({ token_label: undefined, slot: hsm.token.slot, key_label: 'rsa', mechanism: '0x0001', pin: new Secret(hsm.token.userPin, 'env:PIN') }));
    expect(fs.every((f) => f.ok)).toBe(true);
    const byId = await checkManagedKeyBackend('pkcs11', config({ key_label: undefined, key_id: '0x01020304' }), { name: 'hsm-signing' });
    expect(byId.every((f) => f.ok)).toBe(true);
    expect(byId[0]!.subject).toBe('managed key hsm-signing: configuration');
  });

  it('the library does not load', async () => {
    const fs = await checkManagedKeyBackend('pkcs11', config({ library: '/nonexistent/lib.so' }));
    expect(last(fs)).toMatchObject({ ok: false, subject: 'library /nonexistent/lib.so' });
  });

  it('the library is a kms_library name resolved through the options', async () => {
    const fs = await checkManagedKeyBackend('pkcs11', config({ library: 'hsm' }), { kmsLibraries: { hsm: hsm.library } });
    expect(fs.every((f) => f.ok)).toBe(true);
  });

  it('an unknown token label', async () => {
    const fs = await checkManagedKeyBackend('pkcs11', config({ token_label: 'other' }));
    expect(last(fs)).toMatchObject({ ok: false, subject: 'token "other"' });
  });

  it('a wrong PIN', async () => {
    const fs = await checkManagedKeyBackend('pkcs11', config({ pin: 'bad-pin-0000' }));
    expect(last(fs)).toMatchObject({ ok: false, subject: 'login' });
    expect(last(fs).message).toContain('CKR_PIN_INCORRECT');
  });

  it('a missing key: ok when test/sign would generate it, else a failure', async () => {
    const gen = await checkManagedKeyBackend('pkcs11', config({ key_label: 'later', allow_generate_key: 'true', curve: 'P256' }));
    expect(last(gen)).toMatchObject({ ok: true, subject: 'key_label "later"' });
    expect(last(gen).message).toContain('will generate');
    const missing = await checkManagedKeyBackend('pkcs11', config({ key_label: 'later' }));
    expect(last(missing)).toMatchObject({ ok: false, subject: 'key_label "later"' });
    const byId = await checkManagedKeyBackend('pkcs11', config({ key_label: undefined, key_id: 'beef', allow_generate_key: true, curve: 'P256' }));
    expect(last(byId).ok).toBe(false);
  });

  it('a key that may not sign, and a key of the wrong family', async () => {
    const noSign = await checkManagedKeyBackend('pkcs11', config({ key_label: 'no-sign' }));
    expect(last(noSign)).toMatchObject({ ok: false, subject: 'mechanism CKM_ECDSA (0x1041)' });
    expect(last(noSign).message).toContain('CKA_SIGN');
    const family = await checkManagedKeyBackend('pkcs11', config({ key_label: 'rsa' }));
    expect(last(family).ok).toBe(false);
    expect(last(family).message).toContain('needs an EC key');
  });

  it('an invalid configuration', async () => {
    const fs = await checkManagedKeyBackend('pkcs11', config({ mechanism: '4161' }));
    expect(fs).toHaveLength(1);
    expect(last(fs)).toMatchObject({ ok: false, subject: 'configuration' });
  });

  it('an unknown type', async () => {
    const fs = await checkManagedKeyBackend('pkcs12', config());
    expect(last(fs)).toMatchObject({ ok: false, subject: 'type' });
  });
});
