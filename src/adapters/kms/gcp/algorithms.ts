/** The spec's provCckms algorithms: what each fixes (key family, size, hash, padding). */
import { KeyBackendError } from '../errors.js';
import type { HashAlgorithm } from '../hash.js';
import type { SignatureScheme } from '../verify.js';

export interface GcpAlgorithm {
  name: string;
  hash: HashAlgorithm;
  scheme: SignatureScheme;
  /** The digest field of AsymmetricSignRequest.digest. */
  digestField: 'sha256' | 'sha384' | 'sha512';
}

/** The spec's provCckms `algorithm` values (the server's rules and the reconciler's share this list). */
export const GCP_ALGORITHMS = [
  'EC_SIGN_P256_SHA256',
  'EC_SIGN_P384_SHA384',
  'RSA_SIGN_PSS_2048_SHA256',
  'RSA_SIGN_PSS_3072_SHA256',
  'RSA_SIGN_PSS_4096_SHA256',
  'RSA_SIGN_PSS_4096_SHA512',
  'RSA_SIGN_PKCS1_2048_SHA256',
  'RSA_SIGN_PKCS1_3072_SHA256',
  'RSA_SIGN_PKCS1_4096_SHA256',
  'RSA_SIGN_PKCS1_4096_SHA512',
] as const;

export function parseGcpAlgorithm(text: string): GcpAlgorithm {
  const name = text.trim().toUpperCase();
  if (!(GCP_ALGORITHMS as readonly string[]).includes(name)) {
    throw new KeyBackendError('config', 'provCckms', `algorithm must be one of ${GCP_ALGORITHMS.join(', ')}`);
  }
  const bits = name.slice(-3) as '256' | '384' | '512';
  return {
    name,
    hash: `sha2-${bits}`,
    digestField: `sha${bits}`,
    scheme: name.startsWith('EC_') ? { kind: 'ecdsa', encoding: 'der' } : name.includes('_PSS_') ? { kind: 'rsa-pss' } : { kind: 'rsa-pkcs1' },
  };
}
