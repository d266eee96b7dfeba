/** Local verification of a backend's signature with node:crypto and the key's public key. */
import { constants, verify, type KeyObject } from 'node:crypto';
import { KeyBackendError, type KeyBackendType } from './errors.js';
import { hashInfo, type HashAlgorithm } from './hash.js';

export type SignatureScheme =
  /** ECDSA; PKCS#11 returns raw r||s (ieee-p1363), the cloud services DER. */
  | { kind: 'ecdsa'; encoding: 'der' | 'ieee-p1363' }
  | { kind: 'rsa-pkcs1' }
  /** RSASSA-PSS with MGF1 over the same hash and a salt as long as the digest. */
  | { kind: 'rsa-pss' };

export interface SignedData {
  data: Buffer;
  hash: HashAlgorithm;
  scheme: SignatureScheme;
  signature: Buffer;
}

function signatureVerifies(publicKey: KeyObject, s: SignedData): boolean {
  const { node, length } = hashInfo(s.hash);
  const key =
    s.scheme.kind === 'ecdsa'
      ? { key: publicKey, dsaEncoding: s.scheme.encoding }
      : s.scheme.kind === 'rsa-pss'
        ? { key: publicKey, padding: constants.RSA_PKCS1_PSS_PADDING, saltLength: length }
        : { key: publicKey, padding: constants.RSA_PKCS1_PADDING };
  try {
    return verify(node, s.data, key, s.signature);
  } catch {
    return false;
  }
}

/** Throws a `verify` KeyBackendError unless the signature verifies. */
export function assertSignatureVerifies(
  backend: KeyBackendType,
  subject: string,
  publicKey: KeyObject,
  s: SignedData,
): void {
  if (!signatureVerifies(publicKey, s)) {
    throw new KeyBackendError(
      'verify',
      backend,
      `${subject}: the ${s.scheme.kind} signature over ${s.hash} does not verify with the key's public key`,
    );
  }
}
