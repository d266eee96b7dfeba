import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { decodeOperationToken, encodeOperationToken, generateOtp } from '../../../src/kinds/dr-replication/otp.js';
import { normaliseShare, shareEncoding } from '../../../src/kinds/dr-replication/shares.js';

describe('operation-token OTP encoding', () => {
  it('encoded_token = base64 without padding of token XOR otp; decoding reverses it', () => {
    const otp = 'ABCDEFGHIJKLMNOPQRSTUVWXYZab';
    const token = 'hvs.0123456789abcdefghijklmn';
    const encoded = encodeOperationToken(token, otp);
    expect(encoded).not.toMatch(/=$/);
    const expected = Buffer.from([...Buffer.from(token)].map((b, i) => b ^ otp.charCodeAt(i)))
      .toString('base64')
      .replace(/=+$/, '');
    expect(encoded).toBe(expected);
    expect(decodeOperationToken(encoded, otp)).toBe(token);
  });

  it('round-trips any token of the OTP length (property)', () => {
    fc.assert(
      fc.property(fc.stringMatching(/^[A-Za-z0-9.]{28}$/), (token) => {
        const otp = generateOtp();
        expect(decodeOperationToken(encodeOperationToken(token, otp), otp)).toBe(token);
      }),
      { seed: 7, numRuns: 300 },
    );
  });

  it('OTPs are 28 base62 characters', () => {
    for (let i = 0; i < 50; i++) expect(generateOtp()).toMatch(/^[A-Za-z0-9]{28}$/);
  });

  it('refuses a length mismatch or non-base64 text, naming lengths only', () => {
    const otp = generateOtp();
    const short = encodeOperationToken('x'.repeat(20), 'y'.repeat(20));
    expect(() => decodeOperationToken(short, otp)).toThrow('has 20 bytes but the one-time password 28');
    expect(() => decodeOperationToken('***', otp)).toThrow('is not base64');
    try {
      decodeOperationToken(short, otp);
    } catch (e) {
      expect((e as Error).message).not.toContain(otp);
      expect((e as Error).message).not.toContain(short);
    }
  });
});

describe('root key shares', () => {
  it('accepts hex and base64 (padded or not), trimmed', () => {
    expect(shareEncoding('0a1b2c3d')).toBe('hex');
    expect(shareEncoding('ABCDEF0123456789abcdef')).toBe('hex');
    expect(shareEncoding('q83v0ZTF4FbYx2mQp1kR9w==')).toBe('base64');
    expect(shareEncoding('q83v0ZTF4FbYx2mQp1kR9w')).toBe('base64');
    expect(shareEncoding('  0a1b\n')).toBe('hex');
    expect(normaliseShare('  0a1b\n')).toBe('0a1b');
  });

  it('refuses anything else', () => {
    for (const bad of ['', '   ', 'not a share', 'abc$', 'q83v0ZTF4FbYx2mQp1kR9w===', 'a']) expect(shareEncoding(bad)).toBeUndefined();
  });

  it('every hex or base64 encoding of random bytes is accepted (property)', () => {
    fc.assert(
      fc.property(fc.uint8Array({ minLength: 1, maxLength: 64 }), (bytes) => {
        const b = Buffer.from(bytes);
        expect(shareEncoding(b.toString('hex'))).toBe('hex');
        expect(shareEncoding(b.toString('base64'))).toBeDefined();
        expect(shareEncoding(b.toString('base64').replace(/=+$/, ''))).toBeDefined();
      }),
      { seed: 11, numRuns: 300 },
    );
  });
});
