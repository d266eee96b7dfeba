import { combine as combineShares, split as splitShares } from 'shamir-secret-sharing';

/**
 * The service's key shares (shamir/shamir.go, vault/init.go) on the audited
 * `shamir-secret-sharing` library, whose share format is the service's: the polynomial's value
 * for every secret byte, then one byte, the share's x coordinate. The library needs two shares
 * or more; one share is the service's special case, handled here: it is the key itself, with
 * no x coordinate (init.go generateShares: `if sc.SecretShares == 1 { keyShares = [keyBytes] }`).
 */

/** The parts/threshold rules of the service's seal configuration; undefined when they hold. */
export function splitProblem(parts: number, threshold: number): string | undefined {
  if (!Number.isInteger(parts) || parts < 1 || parts > 255) return 'the number of key shares must be between 1 and 255';
  if (!Number.isInteger(threshold) || threshold < 1) return 'the key threshold must be at least 1';
  if (threshold > parts) return 'the key threshold cannot be larger than the number of key shares';
  if (parts > 1 && threshold === 1) return 'threshold must be greater than one for multiple shares';
  return undefined;
}

/** Splits `secret` into `parts` shares, any `threshold` of which rebuild it; one part is the secret. */
export async function split(secret: Uint8Array, parts: number, threshold: number): Promise<Uint8Array[]> {
  const problem = splitProblem(parts, threshold);
  if (problem) throw new RangeError(problem);
  if (secret.length === 0) throw new RangeError('cannot split an empty secret');
  // The library checks `constructor === Uint8Array`: a Buffer is copied into a plain one.
  if (parts === 1) return [Uint8Array.from(secret)];
  return splitShares(Uint8Array.from(secret), parts, threshold);
}

/**
 * The secret the shares rebuild: one share is the secret itself (threshold one, as the
 * service's unseal reads it), two or more are interpolated at x = 0.
 */
export async function combine(shares: readonly Uint8Array[]): Promise<Uint8Array> {
  const first = shares[0];
  if (first === undefined) throw new RangeError('no shares to combine');
  if (shares.length === 1) return Uint8Array.from(first);
  return combineShares(shares.map((s) => Uint8Array.from(s)));
}
