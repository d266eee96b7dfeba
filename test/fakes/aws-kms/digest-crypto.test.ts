import { constants, createHash, randomBytes, verify } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { generateKeyMaterial, signDigest, verifyDigest, type FakeHash } from './digest-crypto.js';

describe('fake digest signing interoperates with node:crypto', () => {
  const data = randomBytes(100);
  for (const hash of ['sha256', 'sha384', 'sha512'] as FakeHash[]) {
    const d = createHash(hash).update(data).digest();

    it(`ECDSA P-256/P-521 over ${hash}`, () => {
      for (const curve of ['P-256', 'P-521'] as const) {
        const key = generateKeyMaterial({ kind: 'EC', curve });
        const sig = signDigest(key, 'ecdsa', hash, d);
        expect(verify(hash, data, key.publicKey, sig)).toBe(true);
        expect(verifyDigest(key, 'ecdsa', hash, d, sig)).toBe(true);
        expect(verifyDigest(key, 'ecdsa', hash, createHash(hash).update('x').digest(), sig)).toBe(false);
      }
    });

    it(`RSA PKCS#1 v1.5 and PSS over ${hash}`, () => {
      const key = generateKeyMaterial({ kind: 'RSA', bits: 2048 });
      const pkcs1 = signDigest(key, 'pkcs1', hash, d);
      expect(verify(hash, data, key.publicKey, pkcs1)).toBe(true);
      expect(verifyDigest(key, 'pkcs1', hash, d, pkcs1)).toBe(true);
      const pss = signDigest(key, 'pss', hash, d);
      const opts = { key: key.publicKey, padding: constants.RSA_PKCS1_PSS_PADDING, saltLength: d.length };
      expect(verify(hash, data, opts, pss)).toBe(true);
      expect(verifyDigest(key, 'pss', hash, d, pss)).toBe(true);
      expect(verifyDigest(key, 'pss', hash, d, pkcs1)).toBe(false);
    });
  }
});
