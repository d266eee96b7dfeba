/** EC domain parameters and points as PKCS#11 stores them (DER). */
import type { JsonWebKey } from 'node:crypto';
import { KeyBackendError } from '../errors.js';
import { coordinateLength, type CurveName } from '../curves.js';

/** DER-encoded OBJECT IDENTIFIER of each curve: the value of CKA_EC_PARAMS. */
export const CURVE_PARAMS: Record<CurveName, Buffer> = {
  'P-256': Buffer.from('06082a8648ce3d030107', 'hex'),
  'P-384': Buffer.from('06052b81040022', 'hex'),
  'P-521': Buffer.from('06052b81040023', 'hex'),
};

export function curveFromParams(params: Buffer): CurveName {
  for (const [curve, der] of Object.entries(CURVE_PARAMS)) if (der.equals(params)) return curve as CurveName;
  throw new KeyBackendError('unsupported', 'pkcs11', `EC key on an unsupported curve (CKA_EC_PARAMS ${params.toString('hex')})`);
}

/**
 * CKA_EC_POINT is normally a DER OCTET STRING wrapping the uncompressed point 04||x||y; some
 * tokens return the bare point. Either gives a JWK.
 */
export function ecPointToJwk(curve: CurveName, value: Buffer): JsonWebKey {
  const size = coordinateLength(curve);
  const point = value.length === 1 + 2 * size ? value : unwrapOctetString(value);
  if (point.length !== 1 + 2 * size || point[0] !== 0x04) {
    throw new KeyBackendError('unsupported', 'pkcs11', `EC point of ${point.length} bytes is not an uncompressed ${curve} point`);
  }
  return {
    kty: 'EC',
    crv: curve,
    x: point.subarray(1, 1 + size).toString('base64url'),
    y: point.subarray(1 + size).toString('base64url'),
  };
}

function unwrapOctetString(der: Buffer): Buffer {
  if (der[0] !== 0x04 || der.length < 2) return der;
  const first = der[1]!;
  if (first < 0x80) return der.subarray(2, 2 + first);
  const n = first & 0x7f;
  const length = der.subarray(2, 2 + n).reduce((acc, b) => acc * 256 + b, 0);
  return der.subarray(2 + n, 2 + n + length);
}
