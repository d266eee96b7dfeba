import { randomBytes } from 'node:crypto';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { combine, gfDiv, gfMul, split, splitProblem } from '../../../src/server/replication/shamir.js';
import { defaultedKeySplit, newKeyMaterial, parseShare, sharesOpen } from '../../../src/server/replication/root-key.js';

/** Every way to choose k of the items. */
function choose<T>(items: readonly T[], k: number): T[][] {
  if (k === 0) return [[]];
  return items.flatMap((item, i) => choose(items.slice(i + 1), k - 1).map((rest) => [item, ...rest]));
}

describe('GF(256)', () => {
  it('multiplies and divides as inverse operations', () => {
    const wrong: string[] = [];
    for (let a = 0; a < 256; a++) {
      for (let b = 1; b < 256; b++) if (gfDiv(gfMul(a, b), b) !== a) wrong.push(`${a}·${b}/${b}`);
    }
    expect(wrong).toEqual([]);
  });

  it('is the AES field (0x53 · 0xCA = 1, 0x57 · 0x83 = 0xC1)', () => {
    expect(gfMul(0x53, 0xca)).toBe(1);
    expect(gfMul(0x57, 0x83)).toBe(0xc1);
  });
});

describe('Shamir secret sharing', () => {
  it('rebuilds the secret from every subset of threshold shares, in any order', () => {
    const secret = randomBytes(32);
    const shares = split(secret, 5, 3);
    expect(shares.every((s) => s.length === 33)).toBe(true);
    for (const subset of choose(shares, 3)) {
      expect(Buffer.from(combine(subset))).toEqual(secret);
      expect(Buffer.from(combine([...subset].reverse()))).toEqual(secret);
    }
    for (const subset of choose(shares, 4)) expect(Buffer.from(combine(subset))).toEqual(secret);
  });

  it('gives something else with fewer shares than the threshold', () => {
    const secret = randomBytes(32);
    const shares = split(secret, 5, 3);
    for (const subset of choose(shares, 2)) expect(Buffer.from(combine(subset))).not.toEqual(secret);
  });

  it('holds for any secret, share count and threshold (property)', () => {
    fc.assert(
      fc.property(
        fc.uint8Array({ minLength: 1, maxLength: 40 }),
        fc.integer({ min: 2, max: 12 }).chain((n) => fc.tuple(fc.constant(n), fc.integer({ min: 2, max: n }))),
        (secret, [parts, threshold]) => {
          const shares = split(secret, parts, threshold);
          expect(new Set(shares.map((s) => s[s.length - 1])).size).toBe(parts);
          expect(Buffer.from(combine(shares.slice(0, threshold)))).toEqual(Buffer.from(secret));
          expect(Buffer.from(combine(shares.slice(parts - threshold)))).toEqual(Buffer.from(secret));
        },
      ),
      { numRuns: 200 },
    );
  });

  it('splits one share of threshold one (the default)', () => {
    const secret = randomBytes(32);
    const [share] = split(secret, 1, 1);
    expect(Buffer.from(combine([share!]))).toEqual(secret);
  });

  it('refuses bad parameters and bad share sets', () => {
    expect(splitProblem(3, 1)).toBe('threshold must be greater than one for multiple shares');
    expect(splitProblem(2, 3)).toMatch(/cannot be larger/);
    expect(splitProblem(0, 0)).toMatch(/between 1 and 255/);
    expect(splitProblem(256, 2)).toMatch(/between 1 and 255/);
    expect(() => split(new Uint8Array(0), 2, 2)).toThrow(/empty/);
    const shares = split(randomBytes(8), 3, 2);
    expect(() => combine([shares[0]!, shares[0]!])).toThrow(/duplicate/);
    expect(() => combine([shares[0]!, shares[1]!.subarray(1)])).toThrow(/same length/);
  });
});

describe('root key material', () => {
  it('splits a new 32-byte root key into hex shares that open it', () => {
    const m = newKeyMaterial({ shares: 3, threshold: 2 });
    expect(m.root_key).toMatch(/^[0-9a-f]{64}$/);
    expect(m.key_shares).toHaveLength(3);
    expect(m.key_threshold).toBe(2);
    const bytes = m.key_shares.map((s) => parseShare(s)!);
    expect(sharesOpen([bytes[0]!, bytes[2]!], m.root_key, 2)).toBe(true);
    expect(sharesOpen([bytes[1]!, bytes[0]!], m.root_key, 2)).toBe(true);
    const other = newKeyMaterial({ shares: 3, threshold: 2 });
    expect(sharesOpen([bytes[0]!, parseShare(other.key_shares[1]!)!], m.root_key, 2)).toBe(false);
  });

  it('reads shares as hex or base64, and nothing else', () => {
    const m = newKeyMaterial();
    const hex = m.key_shares[0]!;
    const b64 = Buffer.from(hex, 'hex').toString('base64');
    expect(parseShare(hex)).toEqual(Buffer.from(hex, 'hex'));
    expect(parseShare(b64)).toEqual(Buffer.from(hex, 'hex'));
    expect(parseShare(` ${hex.toUpperCase()} `)).toEqual(Buffer.from(hex, 'hex'));
    expect(parseShare('not a share!')).toBeUndefined();
    expect(parseShare('')).toBeUndefined();
    expect(sharesOpen([parseShare(b64)!], m.root_key, 1)).toBe(true);
  });

  it('defaults to one share, and to a majority threshold for several', () => {
    expect(defaultedKeySplit(undefined, undefined)).toEqual({ shares: 1, threshold: 1 });
    expect(defaultedKeySplit(5, undefined)).toEqual({ shares: 5, threshold: 3 });
    expect(defaultedKeySplit(4, 4)).toEqual({ shares: 4, threshold: 4 });
  });
});
