import { randomBytes } from 'node:crypto';

/**
 * Shamir secret sharing over GF(2^8) (the AES field, x^8 + x^4 + x^3 + x + 1), as the service
 * splits its root key: each share is the polynomial's values for every secret byte followed by
 * one byte, the share's x coordinate (distinct, never 0). Any `threshold` shares give the
 * secret back; fewer give nothing.
 */

const EXP = new Uint8Array(510);
const LOG = new Uint8Array(256);
{
  let x = 1;
  for (let i = 0; i < 255; i++) {
    EXP[i] = x;
    LOG[x] = i;
    x ^= (x << 1) ^ (x & 0x80 ? 0x11b : 0); // multiply by the generator 3
  }
  for (let i = 255; i < 510; i++) EXP[i] = EXP[i - 255]!;
}

export function gfMul(a: number, b: number): number {
  if (a === 0 || b === 0) return 0;
  return EXP[LOG[a]! + LOG[b]!]!;
}

export function gfDiv(a: number, b: number): number {
  if (b === 0) throw new RangeError('division by zero in GF(256)');
  if (a === 0) return 0;
  return EXP[LOG[a]! + 255 - LOG[b]!]!;
}

/** The parts/threshold rules of the service's seal configuration; undefined when they hold. */
export function splitProblem(parts: number, threshold: number): string | undefined {
  if (!Number.isInteger(parts) || parts < 1 || parts > 255) return 'the number of key shares must be between 1 and 255';
  if (!Number.isInteger(threshold) || threshold < 1) return 'the key threshold must be at least 1';
  if (threshold > parts) return 'the key threshold cannot be larger than the number of key shares';
  if (parts > 1 && threshold === 1) return 'threshold must be greater than one for multiple shares';
  return undefined;
}

/** Splits `secret` into `parts` shares, any `threshold` of which rebuild it. */
export function split(secret: Uint8Array, parts: number, threshold: number, random: (n: number) => Uint8Array = randomBytes): Uint8Array[] {
  const problem = splitProblem(parts, threshold);
  if (problem) throw new RangeError(problem);
  if (secret.length === 0) throw new RangeError('cannot split an empty secret');
  const xs = distinctNonZero(parts, random);
  const shares = xs.map((x) => {
    const share = new Uint8Array(secret.length + 1);
    share[secret.length] = x;
    return share;
  });
  for (let byte = 0; byte < secret.length; byte++) {
    // coefficients[0] is the secret byte; the others are random.
    const coefficients = [secret[byte]!, ...random(threshold - 1)];
    shares.forEach((share, i) => (share[byte] = evaluate(coefficients, xs[i]!)));
  }
  return shares;
}

/** Rebuilds the secret from shares (Lagrange interpolation at x = 0). */
export function combine(shares: readonly Uint8Array[]): Uint8Array {
  if (shares.length === 0) throw new RangeError('no shares to combine');
  const length = shares[0]!.length;
  if (length < 2) throw new RangeError('shares must be at least two bytes long');
  if (shares.some((s) => s.length !== length)) throw new RangeError('all shares must be the same length');
  const xs = shares.map((s) => s[length - 1]!);
  if (xs.includes(0)) throw new RangeError('a share has the x coordinate 0');
  if (new Set(xs).size !== xs.length) throw new RangeError('duplicate share');
  const secret = new Uint8Array(length - 1);
  for (let byte = 0; byte < length - 1; byte++) {
    let value = 0;
    for (let i = 0; i < shares.length; i++) {
      // basis polynomial i at 0: product over j != i of x_j / (x_j - x_i); subtraction is XOR.
      let basis = 1;
      for (let j = 0; j < shares.length; j++) {
        if (j !== i) basis = gfMul(basis, gfDiv(xs[j]!, xs[j]! ^ xs[i]!));
      }
      value ^= gfMul(shares[i]![byte]!, basis);
    }
    secret[byte] = value;
  }
  return secret;
}

/** Horner's rule: coefficients[0] + coefficients[1]·x + ... */
function evaluate(coefficients: number[], x: number): number {
  let result = 0;
  for (let i = coefficients.length - 1; i >= 0; i--) result = gfMul(result, x) ^ coefficients[i]!;
  return result;
}

/** `count` distinct x coordinates in 1..255, in random order. */
function distinctNonZero(count: number, random: (n: number) => Uint8Array): number[] {
  const chosen: number[] = [];
  while (chosen.length < count) {
    for (const b of random(count * 2)) {
      if (b !== 0 && !chosen.includes(b)) chosen.push(b);
      if (chosen.length === count) break;
    }
  }
  return chosen;
}
