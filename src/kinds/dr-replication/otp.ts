import { randomInt } from 'node:crypto';

/**
 * The service returns a generated DR operation token encoded with the attempt's one-time
 * password: `encoded_token = base64(no padding)(token XOR otp)`, token and OTP the same length.
 */
const BASE62 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
const BASE64_TEXT = /^[A-Za-z0-9+/]*={0,2}$/;

/** The token, or an error that names lengths only (never the values). */
export function decodeOperationToken(encoded: string, otp: string): string {
  if (!BASE64_TEXT.test(encoded)) throw new Error('the encoded DR operation token is not base64');
  const bytes = Buffer.from(encoded, 'base64');
  const pad = Buffer.from(otp, 'utf8');
  if (bytes.length !== pad.length) {
    throw new Error(`the encoded DR operation token has ${bytes.length} bytes but the one-time password ${pad.length}: cannot decode it`);
  }
  return Buffer.from(bytes.map((b, i) => b ^ pad[i]!)).toString('utf8');
}

/** The inverse (what the service does); used by the tests' world and the embedded server. */
export function encodeOperationToken(token: string, otp: string): string {
  const bytes = Buffer.from(token, 'utf8');
  const pad = Buffer.from(otp, 'utf8');
  if (bytes.length !== pad.length) throw new Error('token and one-time password must have the same length');
  return Buffer.from(bytes.map((b, i) => b ^ pad[i]!)).toString('base64').replace(/=+$/, '');
}

/** A one-time password as the service makes them: 28 base62 characters. */
export function generateOtp(length = 28): string {
  let out = '';
  for (let i = 0; i < length; i++) out += BASE62[randomInt(BASE62.length)];
  return out;
}
