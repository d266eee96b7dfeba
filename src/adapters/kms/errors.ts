/**
 * The one error type every managed-key backend adapter throws. `code` is stable (the server
 * maps it to an HTTP status, `lockstep check` to a finding); `message` is one line for a human
 * and never carries a PIN, secret key, client secret or credentials (see redact()).
 */
export type KeyBackendType = 'pkcs11' | 'provAkms' | 'provBkeyvault' | 'provCckms';

export type KeyBackendErrorCode =
  /** A configuration field is missing or has an invalid value. */
  | 'config'
  /** The library cannot be loaded or the service cannot be reached. */
  | 'unavailable'
  /** Wrong PIN, rejected or missing credentials. */
  | 'auth'
  /** Slot, token, key, key version or key ring does not exist. */
  | 'not_found'
  /** The key exists but is disabled. */
  | 'disabled'
  /** The key exists but may not sign (usage/purpose/key_ops/CKA_SIGN). */
  | 'usage'
  /** The key's type, size, curve or algorithm differs from the configuration. */
  | 'spec'
  /** The operation needs allow_generate_key / allow_replace_key / allow_store_key. */
  | 'forbidden'
  /** The backend cannot do what was asked (mechanism, hash algorithm, PSS). */
  | 'unsupported'
  /** The backend signed, but the signature does not verify with the key's public key. */
  | 'verify'
  /** Anything else the backend reported. */
  | 'backend';

export class KeyBackendError extends Error {
  override readonly name = 'KeyBackendError';
  readonly code: KeyBackendErrorCode;
  readonly backend: KeyBackendType;

  constructor(code: KeyBackendErrorCode, backend: KeyBackendType, message: string) {
    super(message);
    this.code = code;
    this.backend = backend;
  }

  /** The same error with its message passed through redact(). */
  redacted(secrets: Iterable<string>): KeyBackendError {
    const message = redact(this.message, secrets);
    return message === this.message ? this : new KeyBackendError(this.code, this.backend, message);
  }
}

/** Same text as src/core/secret.ts REDACTED; adapters do not import the reconciler. */
const REDACTED = '(sensitive)';

/** Replaces every occurrence of each (non-empty) secret text in a message by "(sensitive)". */
export function redact(message: string, secrets: Iterable<string>): string {
  let out = message;
  // Longest first, so a secret that contains another is replaced whole.
  const list = [...new Set(secrets)].filter((s) => s.length > 0).sort((a, b) => b.length - a.length);
  for (const s of list) out = out.split(s).join(REDACTED);
  return out;
}

/** First line of any thrown value, for wrapping third-party errors into a message. */
export function firstLine(err: unknown): string {
  const text = err instanceof Error ? err.message : String(err);
  return (text.split('\n')[0] ?? '').trim() || (err instanceof Error ? err.name : 'unknown error');
}
