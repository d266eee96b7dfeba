/**
 * The two ways a request fails. Messages are complete sentences for the user: they name the
 * method and URL (base URL + path, never the token) and never carry a stack trace or a secret
 * (the client scrubs secret texts out before building them).
 */

/** The server answered with a status that is not a success (or with a body lockstep cannot read). */
export class ApiError extends Error {
  override readonly name = 'ApiError';
  readonly cluster: string;
  readonly method: string;
  readonly url: string;
  /** HTTP status; for an unreadable 2xx answer, that 2xx status. */
  readonly status: number;
  /** The server's `errors[]`, scrubbed. */
  readonly errors: string[];

  constructor(init: { cluster: string; method: string; url: string; status: number; errors: string[]; message: string }) {
    super(init.message);
    this.cluster = init.cluster;
    this.method = init.method;
    this.url = init.url;
    this.status = init.status;
    this.errors = init.errors;
  }
}

/** No usable answer: connection refused or reset, DNS, TLS failure, timeout. */
export class TransportError extends Error {
  override readonly name = 'TransportError';
  readonly cluster: string;
  readonly method: string;
  readonly url: string;
  /** Node's error code when there was one (ECONNREFUSED, ETIMEDOUT, CERT_HAS_EXPIRED, ...). */
  readonly code: string | undefined;
  /** Attempts made, retries included. */
  readonly attempts: number;

  constructor(init: { cluster: string; method: string; url: string; code: string | undefined; attempts: number; message: string }) {
    super(init.message);
    this.cluster = init.cluster;
    this.method = init.method;
    this.url = init.url;
    this.code = init.code;
    this.attempts = init.attempts;
  }
}

/** Code of a RefusedRequestError. */
const UNADDRESSABLE_CODE = 'LOCKSTEP_UNADDRESSABLE';

/**
 * A request lockstep refuses to send: a path segment the service cannot address (it would reach
 * another object than the one named). Nothing went over the network.
 */
export class RefusedRequestError extends Error {
  override readonly name = 'RefusedRequestError';
  readonly code = UNADDRESSABLE_CODE;
  readonly cluster: string;
  readonly method: string;
  /** The path as the caller gave it (segments joined with "/"): names, never a secret. */
  readonly path: string;

  constructor(init: { cluster: string; method: string; path: string; message: string }) {
    super(init.message);
    this.cluster = init.cluster;
    this.method = init.method;
    this.path = init.path;
  }
}

export function isApiError(e: unknown): e is ApiError {
  return e instanceof ApiError;
}

export function isTransportError(e: unknown): e is TransportError {
  return e instanceof TransportError;
}

/** An Error with a `code`, as Node's own errors carry: how the transport says what went wrong. */
export function codedError(message: string, code: string): Error {
  return Object.assign(new Error(message), { code });
}
