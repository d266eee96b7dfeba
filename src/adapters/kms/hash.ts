/** The spec's hash_algorithm values and what each needs for signing a digest. */
import { createHash } from 'node:crypto';

export const HASH_ALGORITHMS = [
  'sha1',
  'sha2-224',
  'sha2-256',
  'sha2-384',
  'sha2-512',
  'sha3-224',
  'sha3-256',
  'sha3-384',
  'sha3-512',
] as const;

export type HashAlgorithm = (typeof HASH_ALGORITHMS)[number];

export const DEFAULT_HASH: HashAlgorithm = 'sha2-256';

interface HashInfo {
  /** node:crypto name. */
  node: string;
  /** Digest length in bytes (also the PSS salt length we use). */
  length: number;
  /** DER DigestInfo header that precedes the digest in a PKCS#1 v1.5 signature. */
  digestInfo: Buffer;
}

const hex = (s: string): Buffer => Buffer.from(s, 'hex');

const INFO: Record<HashAlgorithm, HashInfo> = {
  sha1: { node: 'sha1', length: 20, digestInfo: hex('3021300906052b0e03021a05000414') },
  'sha2-224': { node: 'sha224', length: 28, digestInfo: hex('302d300d06096086480165030402040500041c') },
  'sha2-256': { node: 'sha256', length: 32, digestInfo: hex('3031300d060960864801650304020105000420') },
  'sha2-384': { node: 'sha384', length: 48, digestInfo: hex('3041300d060960864801650304020205000430') },
  'sha2-512': { node: 'sha512', length: 64, digestInfo: hex('3051300d060960864801650304020305000440') },
  'sha3-224': { node: 'sha3-224', length: 28, digestInfo: hex('302d300d06096086480165030402070500041c') },
  'sha3-256': { node: 'sha3-256', length: 32, digestInfo: hex('3031300d060960864801650304020805000420') },
  'sha3-384': { node: 'sha3-384', length: 48, digestInfo: hex('3041300d060960864801650304020905000430') },
  'sha3-512': { node: 'sha3-512', length: 64, digestInfo: hex('3051300d060960864801650304020a05000440') },
};

export function isHashAlgorithm(v: unknown): v is HashAlgorithm {
  return typeof v === 'string' && (HASH_ALGORITHMS as readonly string[]).includes(v);
}

export function hashInfo(alg: HashAlgorithm): HashInfo {
  return INFO[alg];
}

export function digest(alg: HashAlgorithm, data: Buffer): Buffer {
  return createHash(INFO[alg].node).update(data).digest();
}

/** DigestInfo || digest: the input of a raw PKCS#1 v1.5 signature (CKM_RSA_PKCS). */
export function digestInfo(alg: HashAlgorithm, digestBytes: Buffer): Buffer {
  return Buffer.concat([INFO[alg].digestInfo, digestBytes]);
}
