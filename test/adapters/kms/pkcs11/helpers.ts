/** Shared bits of the pkcs11 adapter tests. */
import type { PKCS11 } from 'pkcs11js';
import { KeyBackendError } from '../../../../src/adapters/kms/errors.js';

/** The KeyBackendError a promise rejects with (fails the test if it resolves or throws another type). */
export async function rejection(p: Promise<unknown>): Promise<KeyBackendError> {
  try {
    await p;
  } catch (err) {
    if (err instanceof KeyBackendError) return err;
    throw err;
  }
  throw new Error('expected a KeyBackendError, but the call succeeded');
}

/**
 * Wraps C_SignAsync on the cached module to count signatures in flight and make each take
 * `delayMs`, so concurrency becomes observable. Returns a restore function and the counters.
 */
export function instrumentSigning(lib: PKCS11, delayMs: number): { peak: () => number; count: () => number; restore: () => void } {
  // eslint-disable-next-line @typescript-eslint/unbound-method -- kept to restore, and called with apply(this)
  const original = lib.C_SignAsync;
  let active = 0;
  let peak = 0;
  let count = 0;
  lib.C_SignAsync = async function (this: PKCS11, ...args: Parameters<PKCS11['C_SignAsync']>) {
    active += 1;
    count += 1;
    peak = Math.max(peak, active);
    try {
      await new Promise((r) => setTimeout(r, delayMs));
      return await original.apply(this, args);
    } finally {
      active -= 1;
    }
  };
  return { peak: () => peak, count: () => count, restore: () => { lib.C_SignAsync = original; } };
}
