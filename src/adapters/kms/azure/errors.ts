/** Azure SDK errors → KeyBackendError. */
import { KeyBackendError, firstLine, type KeyBackendErrorCode } from '../errors.js';

interface AzureErrorLike {
  name?: string;
  statusCode?: number;
  code?: string;
  message?: string;
}

export function isNotFound(err: unknown): boolean {
  const e = err as AzureErrorLike;
  return e?.statusCode === 404 || e?.code === 'KeyNotFound';
}

/** @azure/identity's error classes. */
const AUTH_ERRORS = new Set(['AuthenticationError', 'AuthenticationRequiredError', 'CredentialUnavailableError', 'AggregateAuthenticationError']);

function codeOf(e: AzureErrorLike): KeyBackendErrorCode {
  if (e.name && AUTH_ERRORS.has(e.name)) return 'auth';
  if (e.statusCode === 401) return 'auth';
  if (e.statusCode === 404) return 'not_found';
  if (e.statusCode === 403) return /disabled/i.test(e.message ?? '') ? 'disabled' : 'usage';
  if (e.code && ['ECONNREFUSED', 'ENOTFOUND', 'ECONNRESET', 'ETIMEDOUT', 'REQUEST_SEND_ERROR'].includes(e.code)) return 'unavailable';
  return 'backend';
}

/** `context: message` (the token endpoint's and vault's messages never echo the secret). */
export function azureError(err: unknown, context: string): KeyBackendError {
  if (err instanceof KeyBackendError) return err;
  // MSAL wraps the service's description in timestamps and trace ids; keep the description.
  const text = firstLine(err)
    .replace(/ - Timestamp: .*? - Description: /, ' - ')
    .replace(/ - Correlation ID: .*$/, '');
  return new KeyBackendError(codeOf(err as AzureErrorLike), 'provBkeyvault', `${context}: ${text}`);
}
