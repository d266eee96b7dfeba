/**
 * The generic fields that govern what an adapter may do to the backend.
 *
 * What is enforced: a key that is found is used as it is; generation happens only when no key
 * is found, and needs allow_generate_key (else `forbidden`, as the spec's Errors table says).
 * Nothing is ever generated over an existing key and no adapter imports key material, so
 * allow_replace_key and allow_store_key are parsed and carried but no adapter operation needs
 * them. If a creation call finds the key already there (a race), the existing key is used.
 */
import { KeyBackendError, type KeyBackendType } from './errors.js';
import { FieldReader } from './config.js';
import type { GenericKeyFields } from './types.js';

/** The spec's `usages` values. */
export const USAGES = ['encrypt', 'decrypt', 'sign', 'verify', 'wrap', 'unwrap', 'mac', 'random'] as const;

export interface KeyPolicy {
  allowGenerate: boolean;
  allowReplace: boolean;
  allowStore: boolean;
  usages: string[];
}

export function readPolicy(backend: KeyBackendType, config: GenericKeyFields): KeyPolicy {
  const r = new FieldReader(backend, config);
  const raw = config.usages ?? 'sign,verify';
  const usages = (Array.isArray(raw) ? raw : String(raw).split(','))
    .map((u) => String(u).trim().toLowerCase())
    .filter((u) => u !== '');
  return {
    allowGenerate: r.bool('allow_generate_key'),
    allowReplace: r.bool('allow_replace_key'),
    allowStore: r.bool('allow_store_key'),
    usages: usages.length > 0 ? usages : ['sign', 'verify'],
  };
}

/** test/sign needs the managed key to allow signing (verification is local). */
export function assertMaySign(backend: KeyBackendType, policy: KeyPolicy): void {
  if (!policy.usages.includes('sign')) {
    throw new KeyBackendError(
      'usage',
      backend,
      `the managed key's usages (${policy.usages.join(',')}) do not include sign`,
    );
  }
}

/** Called when `subject` was not found and would be generated. */
export function assertMayGenerate(backend: KeyBackendType, policy: KeyPolicy, subject: string): void {
  if (!policy.allowGenerate) {
    throw new KeyBackendError(
      'forbidden',
      backend,
      `${subject} not found, and generating it is forbidden (allow_generate_key is false)`,
    );
  }
}
