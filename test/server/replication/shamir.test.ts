import { randomBytes } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { combine, split, splitProblem } from '../../../src/server/replication/shamir.js';
import { defaultedKeySplit, newKeyMaterial, parseShare, sharesOpen } from '../../../src/server/replication/root-key.js';

const SRC = fileURLToPath(new URL('../../../src/', import.meta.url));

/** Every way to choose k of the items. */
function choose<T>(items: readonly T[], k: number): T[][] {
  if (k === 0) return [[]];
  return items.flatMap((item, i) => choose(items.slice(i + 1), k - 1).map((rest) => [item, ...rest]));
}

// Shares made by the hand-written GF(256) implementation this module replaced (5 shares,
// threshold 3, of the bytes 3, 10, 17, ...): the library must read the service's share format
// (y bytes, then the x coordinate) exactly as it did.
const SECRET = Uint8Array.from({ length: 32 }, (_, i) => (i * 7 + 3) & 255);
const OLD_SHARES = [
  'd3654efb57b9dbcb54150a4695b5d7738ba5f5439527e2cc1efb9b4ef2d54ed797',
  'fc91100426637b484f6f5db929bd5c35fb3de51bb61812b65c58ba8c3490109fe6',
  '62d3444de104dbc846185414fa8a5367e16d6b4e97a8ec3a8f91ba2789dd94b69e',
  '0f824c84f2e025e2e0d1873f570b44573f0c2a94e089e5e4e8e4e636ffadbdf675',
  '6114daa470243eca023cd00d04542febc34a91299032c1bb7875bccd7085ca2f39',
].map((hex) => Buffer.from(hex, 'hex'));

describe('Shamir secret sharing (shamir-secret-sharing)', () => {
  it('#15.3: reads shares in the format the earlier implementation (and the service) wrote', async () => {
    for (const subset of choose(OLD_SHARES, 3)) expect(Buffer.from(await combine(subset))).toEqual(Buffer.from(SECRET));
    for (const subset of choose(OLD_SHARES, 2)) expect(Buffer.from(await combine(subset))).not.toEqual(Buffer.from(SECRET));
  });

  it('#15.3: writes that format: one byte longer than the secret, distinct non-zero x coordinates last', async () => {
    const shares = await split(SECRET, 5, 3);
    expect(shares.every((s) => s.length === 33)).toBe(true);
    const xs = shares.map((s) => s[32]!);
    expect(new Set(xs).size).toBe(5);
    expect(xs.includes(0)).toBe(false);
  });

  it('rebuilds the secret from every subset of threshold shares, in any order', async () => {
    const secret = randomBytes(32);
    const shares = await split(secret, 5, 3);
    for (const subset of choose(shares, 3)) {
      expect(Buffer.from(await combine(subset))).toEqual(secret);
      expect(Buffer.from(await combine([...subset].reverse()))).toEqual(secret);
    }
    for (const subset of choose(shares, 4)) expect(Buffer.from(await combine(subset))).toEqual(secret);
    for (const subset of choose(shares, 2)) expect(Buffer.from(await combine(subset))).not.toEqual(secret);
  });

  it('holds for any secret, share count and threshold (property)', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.uint8Array({ minLength: 1, maxLength: 40 }),
        fc.integer({ min: 2, max: 12 }).chain((n) => fc.tuple(fc.constant(n), fc.integer({ min: 2, max: n }))),
        async (secret, [parts, threshold]) => {
          const shares = await split(secret, parts, threshold);
          expect(Buffer.from(await combine(shares.slice(0, threshold)))).toEqual(Buffer.from(secret));
          expect(Buffer.from(await combine(shares.slice(parts - threshold)))).toEqual(Buffer.from(secret));
        },
      ),
      { numRuns: 100 },
    );
  });

  it('#15.3: one share of threshold one is the key itself, as the service makes it (vault/init.go generateShares)', async () => {
    const secret = randomBytes(32);
    const [share, ...rest] = await split(secret, 1, 1);
    expect(rest).toEqual([]);
    expect(Buffer.from(share!)).toEqual(secret);
    expect(Buffer.from(await combine([share!]))).toEqual(secret);
  });

  it('refuses bad parameters and bad share sets', async () => {
    expect(splitProblem(3, 1)).toBe('threshold must be greater than one for multiple shares');
    expect(splitProblem(2, 3)).toMatch(/cannot be larger/);
    expect(splitProblem(0, 0)).toMatch(/between 1 and 255/);
    expect(splitProblem(256, 2)).toMatch(/between 1 and 255/);
    await expect(split(new Uint8Array(0), 2, 2)).rejects.toThrow(/empty/);
    await expect(split(SECRET, 3, 1)).rejects.toThrow(/greater than one/);
    const shares = await split(randomBytes(8), 3, 2);
    await expect(combine([shares[0]!, shares[0]!])).rejects.toThrow(/duplicate/);
    await expect(combine([shares[0]!, shares[1]!.subarray(1)])).rejects.toThrow(/same byte length/);
    await expect(combine([])).rejects.toThrow(/no shares/);
  });

  it('#15.3: no hand-written GF(256) arithmetic is left in src/', () => {
    const sources = readdirSync(SRC, { recursive: true, encoding: 'utf8' }).filter((f) => f.endsWith('.ts'));
    const found = sources.filter((f) => /\bgfMul\b|\bgfDiv\b|0x11b|diffieHellman\(/.test(readFileSync(join(SRC, f), 'utf8')));
    expect(found).toEqual([]);
  });
});

describe('root key material', () => {
  it('splits a new 32-byte root key into hex shares that open it', async () => {
    const m = await newKeyMaterial({ shares: 3, threshold: 2 });
    expect(m.root_key).toMatch(/^[0-9a-f]{64}$/);
    expect(m.key_shares).toHaveLength(3);
    expect(m.key_threshold).toBe(2);
    const bytes = m.key_shares.map((s) => parseShare(s)!);
    expect(await sharesOpen([bytes[0]!, bytes[2]!], m.root_key, 2)).toBe(true);
    expect(await sharesOpen([bytes[1]!, bytes[0]!], m.root_key, 2)).toBe(true);
    const other = await newKeyMaterial({ shares: 3, threshold: 2 });
    expect(await sharesOpen([bytes[0]!, parseShare(other.key_shares[1]!)!], m.root_key, 2)).toBe(false);
  });

  it('reads shares as hex or base64, and nothing else', async () => {
    const m = await newKeyMaterial();
    expect(m.key_shares).toEqual([m.root_key]);
    const hex = m.key_shares[0]!;
    const b64 = Buffer.from(hex, 'hex').toString('base64');
    expect(parseShare(hex)).toEqual(Buffer.from(hex, 'hex'));
    expect(parseShare(b64)).toEqual(Buffer.from(hex, 'hex'));
    expect(parseShare(` ${hex.toUpperCase()} `)).toEqual(Buffer.from(hex, 'hex'));
    expect(parseShare('not a share!')).toBeUndefined();
    expect(parseShare('')).toBeUndefined();
    expect(await sharesOpen([parseShare(b64)!], m.root_key, 1)).toBe(true);
    // A single share from before (the key and an x byte) still opens its key.
    expect(await sharesOpen([Buffer.concat([Buffer.from(m.root_key, 'hex'), Buffer.from([7])])], m.root_key, 1)).toBe(true);
  });

  it('defaults to one share, and to a majority threshold for several', () => {
    expect(defaultedKeySplit(undefined, undefined)).toEqual({ shares: 1, threshold: 1 });
    expect(defaultedKeySplit(5, undefined)).toEqual({ shares: 5, threshold: 3 });
    expect(defaultedKeySplit(4, 4)).toEqual({ shares: 4, threshold: 4 });
  });
});
