/** NIST curves as the spec names them (P256, P384, P521), with the usual other spellings. */
import { KeyBackendError, type KeyBackendType } from './errors.js';

export type CurveName = 'P-256' | 'P-384' | 'P-521';

/** The curve names as the spec writes them (the canonical spelling of a `curve` field). */
export const SPEC_CURVE_NAMES = ['P256', 'P384', 'P521'] as const;

const ALIASES: Record<string, CurveName> = {
  p256: 'P-256',
  secp256r1: 'P-256',
  prime256v1: 'P-256',
  p384: 'P-384',
  secp384r1: 'P-384',
  p521: 'P-521',
  secp521r1: 'P-521',
};

/** P256, P-256, p256, secp256r1 and prime256v1 all name P-256 (same for 384 and 521). */
export function parseCurve(backend: KeyBackendType, text: string): CurveName {
  const curve = ALIASES[text.trim().toLowerCase().replace(/[-_]/g, '')];
  if (!curve) throw new KeyBackendError('config', backend, `curve ${JSON.stringify(text)} is not one of ${SPEC_CURVE_NAMES.join(', ')}`);
  return curve;
}

/** Byte length of a coordinate (and of r and s). */
export function coordinateLength(curve: CurveName): number {
  return curve === 'P-256' ? 32 : curve === 'P-384' ? 48 : 66;
}
