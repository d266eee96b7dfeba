/**
 * Cloud KMS errors → KeyBackendError. Over gRPC the SDK throws errors with a numeric gRPC
 * code; in REST mode it may throw the HTTP client's error (HTTP status as `code`, the JSON
 * error body as message). Both are reduced to the canonical status name. Only the message is
 * used: the HTTP error's `config` carries the request's Authorization header.
 */
import { KeyBackendError, firstLine, type KeyBackendErrorCode } from '../errors.js';

const GRPC_NAMES = ['OK', 'CANCELLED', 'UNKNOWN', 'INVALID_ARGUMENT', 'DEADLINE_EXCEEDED', 'NOT_FOUND', 'ALREADY_EXISTS', 'PERMISSION_DENIED',
  'RESOURCE_EXHAUSTED', 'FAILED_PRECONDITION', 'ABORTED', 'OUT_OF_RANGE', 'UNIMPLEMENTED', 'INTERNAL', 'UNAVAILABLE', 'DATA_LOSS', 'UNAUTHENTICATED'];

const HTTP_NAMES: Record<number, string> = { 400: 'INVALID_ARGUMENT', 401: 'UNAUTHENTICATED', 403: 'PERMISSION_DENIED', 404: 'NOT_FOUND', 409: 'ALREADY_EXISTS', 501: 'UNIMPLEMENTED', 503: 'UNAVAILABLE' };

const CODES: Record<string, KeyBackendErrorCode> = {
  NOT_FOUND: 'not_found',
  UNAUTHENTICATED: 'auth',
  PERMISSION_DENIED: 'auth',
  // A version that is not ENABLED (or a key of another purpose) fails its precondition.
  FAILED_PRECONDITION: 'disabled',
  UNIMPLEMENTED: 'unsupported',
  UNAVAILABLE: 'unavailable',
  DEADLINE_EXCEEDED: 'unavailable',
};

interface Classified {
  status?: string;
  text: string;
}

function classify(err: unknown): Classified {
  const code = (err as { code?: unknown })?.code;
  let status = typeof code === 'number' ? (code < 100 ? GRPC_NAMES[code] : HTTP_NAMES[code]) : undefined;
  let text = firstLine(err);
  try {
    const body = JSON.parse(text) as { error?: { message?: string; status?: string } };
    if (body.error?.message) {
      status = body.error.status ?? status;
      text = body.error.message;
    }
  } catch {
    // not a JSON error body
  }
  if (typeof code === 'string' && /^(ECONNREFUSED|ENOTFOUND|ECONNRESET|ETIMEDOUT)$/.test(code)) status = 'UNAVAILABLE';
  return { status, text };
}

export function isNotFound(err: unknown): boolean {
  return classify(err).status === 'NOT_FOUND';
}

export function isAlreadyExists(err: unknown): boolean {
  return classify(err).status === 'ALREADY_EXISTS';
}

export function gcpError(err: unknown, context: string): KeyBackendError {
  if (err instanceof KeyBackendError) return err;
  const { status, text } = classify(err);
  let code: KeyBackendErrorCode = (status && CODES[status]) || 'backend';
  // google-auth-library failures (token exchange, a key that cannot sign the JWT) carry no status.
  if (!status && /invalid_grant|unauthorized_client|private key|PEM|DECODER/i.test(text)) code = 'auth';
  return new KeyBackendError(code, 'provCckms', `${context}: ${status ? `${status}: ` : ''}${text}`);
}
