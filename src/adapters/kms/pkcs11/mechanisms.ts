/**
 * The `mechanism` field: which key family it implies, and how lockstep signs with such a key.
 *
 * Signing always hashes in node:crypto and hands the digest to a raw mechanism (CKM_ECDSA,
 * CKM_RSA_PKCS with a DigestInfo prefix, CKM_RSA_PKCS_PSS with matching PSS parameters). That
 * makes every hash_algorithm possible whatever hashing mechanism the key names, and needs only
 * the three raw mechanisms from the token. An unknown mechanism is allowed (the spec says so):
 * the key's own CKA_KEY_TYPE then decides, but such a key cannot be generated.
 */
import { KeyBackendError } from '../errors.js';
import type { HashAlgorithm } from '../hash.js';
import { CKM_ECDSA, CKM_RSA_PKCS, CKM_RSA_PKCS_PSS } from './constants.js';

export type KeyFamily = 'EC' | 'RSA';

interface KnownMechanism {
  name: string;
  family: KeyFamily;
}

const KNOWN: Record<number, KnownMechanism> = {
  0x0001: { name: 'CKM_RSA_PKCS', family: 'RSA' },
  0x0006: { name: 'CKM_SHA1_RSA_PKCS', family: 'RSA' },
  0x0009: { name: 'CKM_RSA_PKCS_OAEP', family: 'RSA' },
  0x000d: { name: 'CKM_RSA_PKCS_PSS', family: 'RSA' },
  0x000e: { name: 'CKM_SHA1_RSA_PKCS_PSS', family: 'RSA' },
  0x0040: { name: 'CKM_SHA256_RSA_PKCS', family: 'RSA' },
  0x0041: { name: 'CKM_SHA384_RSA_PKCS', family: 'RSA' },
  0x0042: { name: 'CKM_SHA512_RSA_PKCS', family: 'RSA' },
  0x0043: { name: 'CKM_SHA256_RSA_PKCS_PSS', family: 'RSA' },
  0x0044: { name: 'CKM_SHA384_RSA_PKCS_PSS', family: 'RSA' },
  0x0045: { name: 'CKM_SHA512_RSA_PKCS_PSS', family: 'RSA' },
  0x0046: { name: 'CKM_SHA224_RSA_PKCS', family: 'RSA' },
  0x0047: { name: 'CKM_SHA224_RSA_PKCS_PSS', family: 'RSA' },
  0x1041: { name: 'CKM_ECDSA', family: 'EC' },
  0x1042: { name: 'CKM_ECDSA_SHA1', family: 'EC' },
  0x1043: { name: 'CKM_ECDSA_SHA224', family: 'EC' },
  0x1044: { name: 'CKM_ECDSA_SHA256', family: 'EC' },
  0x1045: { name: 'CKM_ECDSA_SHA384', family: 'EC' },
  0x1046: { name: 'CKM_ECDSA_SHA512', family: 'EC' },
};

/** `0x1041` → 0x1041. Only the spec's form (hexadecimal prefixed by 0x) is accepted. */
export function parseMechanism(text: string): number {
  if (!/^0x[0-9a-f]{1,8}$/i.test(text.trim())) {
    throw new KeyBackendError('config', 'pkcs11', `mechanism ${JSON.stringify(text)} must be hexadecimal prefixed by 0x, e.g. 0x1041`);
  }
  return Number.parseInt(text.trim().slice(2), 16);
}

export function mechanismFamily(mechanism: number): KeyFamily | undefined {
  return KNOWN[mechanism]?.family;
}

export function describeMechanism(mechanism: number): string {
  const hex = `0x${mechanism.toString(16).padStart(4, '0')}`;
  const known = KNOWN[mechanism];
  return known ? `${known.name} (${hex})` : hex;
}

/** PKCS#11 hash mechanism and MGF1 generator for each hash (CK_RSA_PKCS_PSS_PARAMS). */
const PSS_PARAMS: Record<HashAlgorithm, { hashAlg: number; mgf: number }> = {
  sha1: { hashAlg: 0x220, mgf: 0x1 },
  'sha2-224': { hashAlg: 0x255, mgf: 0x5 },
  'sha2-256': { hashAlg: 0x250, mgf: 0x2 },
  'sha2-384': { hashAlg: 0x260, mgf: 0x3 },
  'sha2-512': { hashAlg: 0x270, mgf: 0x4 },
  'sha3-224': { hashAlg: 0x2b5, mgf: 0x6 },
  'sha3-256': { hashAlg: 0x2b0, mgf: 0x7 },
  'sha3-384': { hashAlg: 0x2c0, mgf: 0x8 },
  'sha3-512': { hashAlg: 0x2d0, mgf: 0x9 },
};

export type SigningMechanism =
  | { mechanism: typeof CKM_ECDSA }
  | { mechanism: typeof CKM_RSA_PKCS }
  | { mechanism: typeof CKM_RSA_PKCS_PSS; params: { hashAlg: number; mgf: number; saltLen: number } };

/** The raw mechanism that signs a digest with a key of this family. */
export function signingMechanism(family: KeyFamily, hash: HashAlgorithm, usePss: boolean, saltLen: number): SigningMechanism {
  if (family === 'EC') return { mechanism: CKM_ECDSA };
  if (!usePss) return { mechanism: CKM_RSA_PKCS };
  return { mechanism: CKM_RSA_PKCS_PSS, params: { ...PSS_PARAMS[hash], saltLen } };
}
