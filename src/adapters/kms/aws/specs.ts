/** key_type/curve/key_bits ↔ KMS KeySpec, and hash_algorithm/use_pss → SigningAlgorithm. */
import type { KeySpec, SigningAlgorithmSpec } from '@aws-sdk/client-kms';
import { KeyBackendError } from '../errors.js';
import type { HashAlgorithm } from '../hash.js';
import type { AwsSettings } from './settings.js';

export function expectedKeySpec(s: AwsSettings): KeySpec {
  if (s.keyType === 'RSA') return `RSA_${s.keyBits}` as KeySpec;
  return `ECC_NIST_${s.curve!.replace('-', '')}` as KeySpec;
}

const SHA2: Partial<Record<HashAlgorithm, string>> = { 'sha2-256': '256', 'sha2-384': '384', 'sha2-512': '512' };

/** KMS signs SHA-256/384/512 digests only (ECDSA_SHA_*, RSASSA_PSS_SHA_*, RSASSA_PKCS1_V1_5_SHA_*). */
export function signingAlgorithm(s: AwsSettings, hash: HashAlgorithm, usePss: boolean): SigningAlgorithmSpec {
  const bits = SHA2[hash];
  if (!bits) {
    throw new KeyBackendError('unsupported', 'provAkms', `hash_algorithm ${hash} is not supported (KMS signs sha2-256, sha2-384 and sha2-512 digests)`);
  }
  if (s.keyType === 'ECDSA') return `ECDSA_SHA_${bits}` as SigningAlgorithmSpec;
  return (usePss ? `RSASSA_PSS_SHA_${bits}` : `RSASSA_PKCS1_V1_5_SHA_${bits}`) as SigningAlgorithmSpec;
}
