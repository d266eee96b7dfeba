/**
 * One error type for every backend, with a coarse kind the callers can act on and a one-line
 * message from which every configured secret has been removed. SDK errors can echo request
 * details, so nothing leaves an adapter without passing through here.
 */
export type StorageErrorKind = 'not-found' | 'access-denied' | 'unavailable' | 'invalid-config' | 'no-space' | 'failed';

const REDACTED = '(sensitive)';

export class StorageError extends Error {
  override readonly name = 'StorageError';
  /** The cause alone (the message is `<operation> failed: <detail>`), already scrubbed. */
  readonly detail: string;

  constructor(
    readonly kind: StorageErrorKind,
    message: string,
    detail?: string,
  ) {
    super(message);
    this.detail = detail ?? message;
  }
}

/** Replaces every occurrence of the given secret texts (adapters may not import src/core). */
export function scrubSecrets(text: string, secrets: readonly string[]): string {
  let out = text;
  for (const s of secrets) if (s.length > 0) out = out.split(s).join(REDACTED);
  return out;
}

/** Wraps any thrown value as a StorageError: `<operation> failed: <detail>`, scrubbed. */
export function toStorageError(err: unknown, operation: string, secrets: readonly string[]): StorageError {
  if (err instanceof StorageError) return new StorageError(err.kind, scrubSecrets(err.message, secrets), scrubSecrets(err.detail, secrets));
  const detail = scrubSecrets(describeCause(err), secrets);
  return new StorageError(kindOf(err), scrubSecrets(`${operation} failed: ${detail}`, secrets), detail);
}

export function invalidConfig(message: string): StorageError {
  return new StorageError('invalid-config', message);
}

interface ErrorLike {
  name?: string;
  code?: string | number;
  message?: string;
  statusCode?: number;
  $metadata?: { httpStatusCode?: number };
  response?: { status?: number };
}

/** First line of the message, then the SDK's error code and HTTP status in parentheses. */
function describeCause(err: unknown): string {
  if (!(err instanceof Error)) return String(err).split('\n')[0]!;
  const e = err as ErrorLike;
  const text = (e.message ?? '').split('\n')[0]!.trim();
  const code = typeof e.code === 'string' && !/^\d+$/.test(e.code) ? e.code : e.name;
  const status = httpStatus(e);
  const label = [code && code !== 'Error' && !text.includes(code) ? code : '', status ? `HTTP ${status}` : '']
    .filter(Boolean)
    .join(', ');
  return label ? `${text || 'error'} (${label})` : text || String(err);
}

function httpStatus(e: ErrorLike): number | undefined {
  return e.$metadata?.httpStatusCode ?? e.statusCode ?? e.response?.status ?? (typeof e.code === 'number' ? e.code : undefined);
}

const UNAVAILABLE = new Set(['ECONNREFUSED', 'ECONNRESET', 'ENOTFOUND', 'EAI_AGAIN', 'ETIMEDOUT', 'EHOSTUNREACH', 'ENETUNREACH', 'TimeoutError', 'RequestTimeout']);

function kindOf(err: unknown): StorageErrorKind {
  const e = (err ?? {}) as ErrorLike;
  const code = typeof e.code === 'string' ? e.code : (e.name ?? '');
  if (code === 'ENOENT' || code === 'NoSuchKey' || code === 'NoSuchBucket' || code === 'ContainerNotFound' || code === 'BlobNotFound') return 'not-found';
  if (code === 'EACCES' || code === 'EPERM' || code === 'EROFS') return 'access-denied';
  if (code === 'ENOSPC' || code === 'EDQUOT') return 'no-space';
  if (UNAVAILABLE.has(code) || UNAVAILABLE.has(e.name ?? '')) return 'unavailable';
  const status = httpStatus(e);
  if (status === 404) return 'not-found';
  if (status === 401 || status === 403) return 'access-denied';
  if (status !== undefined && status >= 500) return 'unavailable';
  return 'failed';
}
