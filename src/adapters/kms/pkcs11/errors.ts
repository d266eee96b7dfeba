/** Turns pkcs11js errors (message `CKR_*`) into KeyBackendErrors with a context. */
import { KeyBackendError, firstLine, type KeyBackendErrorCode } from '../errors.js';

/** The CKR_* name of a pkcs11js Pkcs11Error, or undefined for anything else. */
function ckrName(err: unknown): string | undefined {
  if (!(err instanceof Error)) return undefined;
  return /^(CKR_[A-Z0-9_]+)/.exec(err.message)?.[1];
}

export function isCkr(err: unknown, name: string): boolean {
  return ckrName(err) === name;
}

const CODES: Record<string, KeyBackendErrorCode> = {
  CKR_PIN_INCORRECT: 'auth',
  CKR_PIN_INVALID: 'auth',
  CKR_PIN_LEN_RANGE: 'auth',
  CKR_PIN_LOCKED: 'auth',
  CKR_PIN_EXPIRED: 'auth',
  CKR_USER_PIN_NOT_INITIALIZED: 'auth',
  CKR_USER_NOT_LOGGED_IN: 'auth',
  CKR_SLOT_ID_INVALID: 'not_found',
  CKR_TOKEN_NOT_PRESENT: 'not_found',
  CKR_TOKEN_NOT_RECOGNIZED: 'not_found',
  CKR_OBJECT_HANDLE_INVALID: 'not_found',
  CKR_KEY_HANDLE_INVALID: 'not_found',
  CKR_MECHANISM_INVALID: 'unsupported',
  CKR_MECHANISM_PARAM_INVALID: 'unsupported',
  CKR_KEY_TYPE_INCONSISTENT: 'spec',
  CKR_KEY_SIZE_RANGE: 'spec',
  CKR_DOMAIN_PARAMS_INVALID: 'spec',
  CKR_KEY_FUNCTION_NOT_PERMITTED: 'usage',
  CKR_DEVICE_REMOVED: 'unavailable',
  CKR_DEVICE_ERROR: 'unavailable',
  CKR_CRYPTOKI_NOT_INITIALIZED: 'unavailable',
};

/**
 * `context: CKR_NAME`. pkcs11js messages hold only the CKR name, the function and the native
 * source line — never a PIN — and only the CKR name (or first line) is kept.
 */
export function pkcs11Error(err: unknown, context: string, code?: KeyBackendErrorCode): KeyBackendError {
  if (err instanceof KeyBackendError) return err;
  const ckr = ckrName(err);
  const resolved = code ?? (ckr ? CODES[ckr] : undefined) ?? 'backend';
  return new KeyBackendError(resolved, 'pkcs11', `${context}: ${ckr ?? firstLine(err)}`);
}
