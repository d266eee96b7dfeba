import { randomBase62 } from '../util/random.js';

/** Length of one-time passwords and of the DR operation tokens they encode ("hvs." + 24). */
export const OTP_LENGTH = 28;

export function newOtp(): string {
  return randomBase62(OTP_LENGTH);
}

/** `base64 (no padding) of (token XOR otp)`; both must be the same length. */
export function encodeWithOtp(token: string, otp: string): string {
  const bytes = Buffer.from(token, 'utf8');
  const pad = Buffer.from(otp, 'utf8');
  if (bytes.length !== pad.length) throw new RangeError('the token and the one-time password differ in length');
  return Buffer.from(bytes.map((b, i) => b ^ pad[i]!))
    .toString('base64')
    .replace(/=+$/, '');
}

/** The inverse of encodeWithOtp (for tests and scripts). */
export function decodeWithOtp(encoded: string, otp: string): string {
  const bytes = Buffer.from(encoded, 'base64');
  const pad = Buffer.from(otp, 'utf8');
  if (bytes.length !== pad.length) throw new RangeError('the encoded token and the one-time password differ in length');
  return Buffer.from(bytes.map((b, i) => b ^ pad[i]!)).toString('utf8');
}
