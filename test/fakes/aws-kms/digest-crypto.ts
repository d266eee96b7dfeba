/**
 * Signing and verifying a precomputed digest, as the cloud KMS services do. node:crypto hashes
 * its input itself, so: ECDSA goes through @noble/curves, RSA PKCS#1 v1.5 is a private-key
 * "encryption" of DigestInfo||digest, and RSA-PSS is EMSA-PSS (RFC 8017 §9.1) by hand over a
 * raw RSA operation. Shared by the three cloud fakes (aws-kms, azure-keyvault, gcp-kms).
 */
import {
  constants, createHash, generateKeyPairSync, privateEncrypt, publicDecrypt, randomBytes,
  timingSafeEqual, type KeyObject,
} from 'node:crypto';
import { p256, p384, p521 } from '@noble/curves/nist';

export type FakeCurve = 'P-256' | 'P-384' | 'P-521';
export type FakeHash = 'sha256' | 'sha384' | 'sha512';
export type DigestScheme = 'ecdsa' | 'pkcs1' | 'pss';

export type FakeKeyMaterial =
  | { kind: 'EC'; curve: FakeCurve; privateKey: KeyObject; publicKey: KeyObject }
  | { kind: 'RSA'; bits: number; privateKey: KeyObject; publicKey: KeyObject };

export function generateKeyMaterial(spec: { kind: 'EC'; curve: FakeCurve } | { kind: 'RSA'; bits: number }): FakeKeyMaterial {
  if (spec.kind === 'EC') {
    const { privateKey, publicKey } = generateKeyPairSync('ec', { namedCurve: spec.curve });
    return { ...spec, privateKey, publicKey };
  }
  const { privateKey, publicKey } = generateKeyPairSync('rsa', { modulusLength: spec.bits });
  return { ...spec, privateKey, publicKey };
}

const CURVES = { 'P-256': p256, 'P-384': p384, 'P-521': p521 };

const DIGEST_INFO: Record<FakeHash, string> = {
  sha256: '3031300d060960864801650304020105000420',
  sha384: '3041300d060960864801650304020205000430',
  sha512: '3051300d060960864801650304020305000440',
};

export function hashOfLength(length: number): FakeHash | undefined {
  return ({ 32: 'sha256', 48: 'sha384', 64: 'sha512' } as const)[length];
}

/** ECDSA signatures come back DER-encoded, as all three services return them. */
export function signDigest(key: FakeKeyMaterial, scheme: DigestScheme, hash: FakeHash, digest: Buffer): Buffer {
  if (key.kind === 'EC') {
    const d = Buffer.from(key.privateKey.export({ format: 'jwk' }).d!, 'base64url');
    return Buffer.from(CURVES[key.curve].sign(digest, d, { lowS: true }).toDERRawBytes());
  }
  if (scheme === 'pkcs1') {
    const info = Buffer.concat([Buffer.from(DIGEST_INFO[hash], 'hex'), digest]);
    return privateEncrypt({ key: key.privateKey, padding: constants.RSA_PKCS1_PADDING }, info);
  }
  const em = emsaPssEncode(digest, hash, key.bits - 1);
  return privateEncrypt({ key: key.privateKey, padding: constants.RSA_NO_PADDING }, leftPad(em, key.bits / 8));
}

export function verifyDigest(key: FakeKeyMaterial, scheme: DigestScheme, hash: FakeHash, digest: Buffer, signature: Buffer): boolean {
  try {
    if (key.kind === 'EC') {
      const jwk = key.publicKey.export({ format: 'jwk' });
      const point = Buffer.concat([Buffer.from([4]), Buffer.from(jwk.x!, 'base64url'), Buffer.from(jwk.y!, 'base64url')]);
      return CURVES[key.curve].verify(signature, digest, point, { lowS: false });
    }
    if (scheme === 'pkcs1') {
      const info = Buffer.concat([Buffer.from(DIGEST_INFO[hash], 'hex'), digest]);
      const out = publicDecrypt({ key: key.publicKey, padding: constants.RSA_PKCS1_PADDING }, signature);
      return out.length === info.length && timingSafeEqual(out, info);
    }
    const em = publicDecrypt({ key: key.publicKey, padding: constants.RSA_NO_PADDING }, signature);
    return emsaPssVerify(digest, hash, em, key.bits - 1);
  } catch {
    return false;
  }
}

function mgf1(hash: FakeHash, seed: Buffer, length: number): Buffer {
  const out: Buffer[] = [];
  for (let i = 0; out.length * seed.length < length + seed.length; i++) {
    const c = Buffer.alloc(4);
    c.writeUInt32BE(i);
    out.push(createHash(hash).update(seed).update(c).digest());
  }
  return Buffer.concat(out).subarray(0, length);
}

/** EMSA-PSS-ENCODE with MGF1 over the same hash and a salt as long as the digest. */
function emsaPssEncode(mHash: Buffer, hash: FakeHash, emBits: number): Buffer {
  const hLen = mHash.length;
  const emLen = Math.ceil(emBits / 8);
  const salt = randomBytes(hLen);
  const h = createHash(hash).update(Buffer.alloc(8)).update(mHash).update(salt).digest();
  const db = Buffer.concat([Buffer.alloc(emLen - 2 * hLen - 2), Buffer.from([1]), salt]);
  const masked = xor(db, mgf1(hash, h, db.length));
  masked[0]! &= 0xff >> (8 * emLen - emBits);
  return Buffer.concat([masked, h, Buffer.from([0xbc])]);
}

function emsaPssVerify(mHash: Buffer, hash: FakeHash, raw: Buffer, emBits: number): boolean {
  const hLen = mHash.length;
  const emLen = Math.ceil(emBits / 8);
  const em = raw.subarray(raw.length - emLen);
  if (em[emLen - 1] !== 0xbc) return false;
  const masked = em.subarray(0, emLen - hLen - 1);
  const h = em.subarray(emLen - hLen - 1, emLen - 1);
  const db = xor(masked, mgf1(hash, h, masked.length));
  db[0]! &= 0xff >> (8 * emLen - emBits);
  const sep = emLen - 2 * hLen - 2;
  if (!db.subarray(0, sep).every((b) => b === 0) || db[sep] !== 1) return false;
  const salt = db.subarray(sep + 1);
  const h2 = createHash(hash).update(Buffer.alloc(8)).update(mHash).update(salt).digest();
  return h2.equals(h);
}

function xor(a: Buffer, b: Buffer): Buffer {
  return Buffer.from(a.map((v, i) => v ^ b[i]!));
}

function leftPad(b: Buffer, length: number): Buffer {
  return b.length >= length ? b : Buffer.concat([Buffer.alloc(length - b.length), b]);
}
