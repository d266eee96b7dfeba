/** AWS SDK errors → KeyBackendError. */
import { KeyBackendError, firstLine, type KeyBackendErrorCode } from '../errors.js';

const CODES: Record<string, KeyBackendErrorCode> = {
  NotFoundException: 'not_found',
  DisabledException: 'disabled',
  KMSInvalidStateException: 'disabled',
  InvalidKeyUsageException: 'usage',
  UnsupportedOperationException: 'unsupported',
  UnrecognizedClientException: 'auth',
  InvalidSignatureException: 'auth',
  IncompleteSignatureException: 'auth',
  MissingAuthenticationTokenException: 'auth',
  AccessDeniedException: 'auth',
  AccessDenied: 'auth',
  ExpiredTokenException: 'auth',
  CredentialsProviderError: 'auth',
  TimeoutError: 'unavailable',
};

const NETWORK = new Set(['ECONNREFUSED', 'ECONNRESET', 'ENOTFOUND', 'EAI_AGAIN', 'ETIMEDOUT', 'EHOSTUNREACH']);

/** `context: Name: message` — the service's message never carries the secret key. */
export function awsError(err: unknown, context: string): KeyBackendError {
  if (err instanceof KeyBackendError) return err;
  const e = err as { name?: string; code?: string; message?: string };
  const name = e?.name ?? 'Error';
  const code = CODES[name] ?? (e?.code && NETWORK.has(e.code) ? 'unavailable' : 'backend');
  const text = firstLine(err);
  return new KeyBackendError(code, 'provAkms', `${context}: ${text.startsWith(name) || name === 'Error' ? text : `${name}: ${text}`}`);
}

export function isAwsError(err: unknown, name: string): boolean {
  return (err as { name?: string })?.name === name;
}
