import { createRequire } from 'node:module';
import type { ClusterTarget } from '../core/cluster.js';
import type { JsonObject } from '../core/json.js';
import { collectSecretTexts, revealDeep, scrub, type Secret } from '../core/secret.js';
import { ApiError, RefusedRequestError, TransportError } from './errors.js';
import type { ConcurrencyLimiter } from './limiter.js';
import { errorsOf, isStringArray, parseBody, snippet, toApiResponse } from './response.js';
import { backoffDelay, DEFAULT_BACKOFF, isRetryableStatus, parseRetryAfter, sleep, type BackoffPolicy } from './retry.js';
import { BAD_RESPONSE_CODE } from './http1-response.js';
import { proxyFor, type ProxySettings } from './proxy.js';
import { PROXY_REFUSED_CODE } from './tunnel.js';
import { createEndpoint, INVALID_REQUEST_CODE, sendOnce, TIMEOUT_CODE, type Endpoint, type RawResponse } from './transport.js';
import { encodeSegment, segmentProblem } from '../core/path-segment.js';
import type { ApiResponse, ClusterClient, HttpMethod, RequestOptions, RequestPath } from './types.js';

export interface ClientOptions {
  /** Shared by every client of one command: bounds requests in flight across all clusters. */
  limiter: ConcurrencyLimiter;
  /** Per attempt, for the whole exchange. Default 30000. */
  timeoutMs?: number;
  /** Further attempts after the first, for idempotent calls only. Default 4. */
  retries?: number;
  userAgent?: string;
  /** Backoff timings (tests shorten them). */
  backoff?: Partial<BackoffPolicy>;
  /** The HTTP proxy to go through; default: from the environment (see proxy.ts); null: none. */
  proxy?: ProxySettings | null;
}

/** A ClusterClient that owns sockets: `close()` ends its idle keep-alive connections. */
export interface HttpClusterClient extends ClusterClient {
  close(): void;
}

export const DEFAULT_TIMEOUT_MS = 30_000;
export const DEFAULT_RETRIES = 4;
export const DEFAULT_USER_AGENT = 'lockstep/0.1';

export function createClusterClient(target: ClusterTarget, opts: ClientOptions): HttpClusterClient {
  return new HttpClient(target, opts);
}

/** Node error codes worth another attempt: the connection failed, not the request. */
const RETRYABLE_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'EPIPE',
  'ETIMEDOUT',
  'ECONNABORTED',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'EAI_AGAIN',
  TIMEOUT_CODE,
]);

/**
 * A call that is not retried goes only on a connection idle for less than this, else on a new
 * one: during an apply connections are idle for milliseconds, after an approval prompt for as
 * long as someone read the plan (see ConnectionPool.exchange).
 */
const UNSAFE_MAX_IDLE_MS = 1000;

const NOT_FOUND_OK: RequestOptions = Object.freeze({ okStatuses: Object.freeze([404]) as number[] });

/** One request as prepared once and carried through its attempts. */
interface Call {
  method: HttpMethod;
  /** The path as shown in messages: the segments joined with "/", unencoded. */
  path: string;
  opts: RequestOptions;
  wireMethod: string;
  requestPath: string;
  payload: string | undefined;
  idempotent: boolean;
  timeoutMs: number;
}

class HttpClient implements HttpClusterClient {
  readonly cluster: string;
  readonly baseUrl: string;
  readonly #token: Secret;
  readonly #limiter: ConcurrencyLimiter;
  readonly #endpoint: Endpoint;
  readonly #proxy: ProxySettings | undefined;
  readonly #timeoutMs: number;
  readonly #retries: number;
  readonly #userAgent: string;
  readonly #backoff: BackoffPolicy;
  #requestCount = 0;

  constructor(target: ClusterTarget, opts: ClientOptions) {
    this.cluster = target.name;
    this.baseUrl = target.address.replace(/\/+$/, '');
    let url: URL;
    try {
      url = new URL(this.baseUrl);
    } catch {
      throw new Error(`cluster ${target.name}: address ${JSON.stringify(this.baseUrl)} is not a URL`);
    }
    if (url.protocol !== 'http:' && url.protocol !== 'https:') {
      throw new Error(`cluster ${target.name}: address ${this.baseUrl} must start with http:// or https://`);
    }
    if (url.username || url.password || url.search || url.hash) {
      throw new Error(`cluster ${target.name}: address must be a plain base URL (no credentials, query or fragment)`);
    }
    this.#token = target.token;
    this.#limiter = opts.limiter;
    try {
      this.#proxy = opts.proxy === undefined ? proxyFor(url) : (opts.proxy ?? undefined);
    } catch (err) {
      throw new Error(`cluster ${target.name}: ${(err as Error).message}`);
    }
    this.#endpoint = createEndpoint(url, target, this.#proxy);
    this.#timeoutMs = opts.timeoutMs ?? DEFAULT_TIMEOUT_MS;
    this.#retries = opts.retries ?? DEFAULT_RETRIES;
    this.#userAgent = opts.userAgent ?? DEFAULT_USER_AGENT;
    this.#backoff = { ...DEFAULT_BACKOFF, ...opts.backoff };
  }

  get requestCount(): number {
    return this.#requestCount;
  }

  get concurrency(): number {
    return this.#limiter.size;
  }

  close(): void {
    this.#endpoint.pool.destroy();
  }

  // read/list/delete chain with .then rather than async frames: a plan may queue thousands of
  // calls at once, and every suspended frame is memory the garbage collector walks.
  read(path: RequestPath): Promise<JsonObject | null> {
    return this.request('GET', path, NOT_FOUND_OK).then((res) => {
      if (res.status === 404) return null;
      // An object's read answers with its data: anything else (null, none) is not "empty".
      if (res.data === null) throw this.#unexpected('GET', this.#url(shownPath(path)), res.status, '"data" is not an object', [this.#token.reveal()]);
      return res.data;
    });
  }

  list(path: RequestPath): Promise<string[]> {
    return this.request('LIST', path, NOT_FOUND_OK).then((res) => {
      if (res.status === 404) return [];
      const keys = res.data?.keys;
      if (!isStringArray(keys)) {
        throw this.#unexpected('LIST', this.#url(shownPath(path)), res.status, '"data.keys" is not a list of strings', [this.#token.reveal()]);
      }
      return keys;
    });
  }

  write(path: RequestPath, body: unknown, opts: { idempotent?: boolean } = {}): Promise<ApiResponse> {
    return this.request('POST', path, { body, idempotent: opts.idempotent });
  }

  delete(path: RequestPath): Promise<void> {
    return this.request('DELETE', path, NOT_FOUND_OK).then(() => undefined);
  }

  request(method: HttpMethod, path: RequestPath, opts: RequestOptions = {}): Promise<ApiResponse> {
    let call: Call;
    try {
      call = {
        method,
        path: shownPath(path),
        opts,
        // LIST goes as GET ?list=true: Node's HTTP stack (and some proxies) reject the LIST method.
        wireMethod: method === 'LIST' ? 'GET' : method,
        requestPath: this.#requestPath(method, path, opts.query),
        payload: opts.body === undefined ? undefined : JSON.stringify(revealDeep(opts.body)),
        idempotent: opts.idempotent ?? method !== 'POST',
        timeoutMs: opts.timeoutMs ?? this.#timeoutMs,
      };
    } catch (err) {
      return Promise.reject(err);
    }
    return this.#attempt(call, 0);
  }

  /** One attempt. The limiter slot is held for the exchange only, never while waiting to retry. */
  #attempt(call: Call, attempt: number): Promise<ApiResponse> {
    return this.#limiter.run(() => this.#send(call)).then(
      (raw) => this.#onAnswer(call, raw, attempt),
      (err: unknown) => this.#onFailure(call, err, attempt),
    );
  }

  #send(call: Call): Promise<RawResponse> {
    this.#requestCount++;
    const headers = this.#headers(call.opts.anonymous, call.payload);
    return sendOnce(this.#endpoint, call.wireMethod, call.requestPath, headers, call.payload, call.timeoutMs, call.idempotent ? Infinity : UNSAFE_MAX_IDLE_MS);
  }

  #onAnswer(call: Call, raw: RawResponse, attempt: number): ApiResponse | Promise<ApiResponse> {
    const accepted = (raw.status >= 200 && raw.status < 300) || (call.opts.okStatuses?.includes(raw.status) ?? false);
    if (!accepted && this.#mayRetry(call, attempt) && isRetryableStatus(raw.status)) {
      const retryAfter = parseRetryAfter(raw.headers['retry-after'], this.#backoff.maxRetryAfterMs);
      return this.#retry(call, attempt, retryAfter ?? backoffDelay(attempt, this.#backoff));
    }
    return this.#answer(call, raw, accepted, attempt + 1);
  }

  #onFailure(call: Call, err: unknown, attempt: number): Promise<ApiResponse> {
    const code = (err as { code?: unknown } | null)?.code;
    if (this.#mayRetry(call, attempt) && typeof code === 'string' && RETRYABLE_CODES.has(code)) {
      return this.#retry(call, attempt, backoffDelay(attempt, this.#backoff));
    }
    throw this.#transportError(call, err, attempt + 1);
  }

  #mayRetry(call: Call, attempt: number): boolean {
    return call.idempotent && attempt < this.#retries;
  }

  #retry(call: Call, attempt: number, delayMs: number): Promise<ApiResponse> {
    return sleep(delayMs).then(() => this.#attempt(call, attempt + 1));
  }

  /** Texts to scrub from any message built from an answer: a server may echo what it was sent. */
  #secrets(call: Call): string[] {
    const proxyCredentials = this.#proxy?.authorization ? [this.#proxy.authorization] : [];
    return [this.#token.reveal(), ...proxyCredentials, ...collectSecretTexts(call.opts.body)];
  }

  /** Turns a received answer into an ApiResponse, or the ApiError it stands for. */
  #answer(call: Call, raw: RawResponse, accepted: boolean, attempts: number): ApiResponse {
    const { method, path } = call;
    const parsed = parseBody(raw.text);
    if (!accepted) {
      const url = this.#url(path);
      const secrets = this.#secrets(call);
      const errors = 'body' in parsed ? errorsOf(parsed.body).map((e) => scrub(e, secrets)) : [];
      const detail = 'problem' in parsed ? snippet(raw.text) : errors.join('; ');
      const suffix = attempts > 1 ? ` (after ${attempts} attempts)` : '';
      const message = scrub(`${method} ${url}: ${statusLine(raw.status)}${detail ? `: ${detail}` : ''}${suffix}`, secrets);
      throw new ApiError({ cluster: this.cluster, method, url, status: raw.status, errors, message });
    }
    const success = raw.status >= 200 && raw.status < 300;
    if ('problem' in parsed) {
      // A non-2xx status the caller accepts (a 404 on a read) needs no readable body.
      if (!success) return { status: raw.status, data: null, auth: null, warnings: [], body: null };
      throw this.#unexpected(method, this.#url(path), raw.status, parsed.problem, this.#secrets(call));
    }
    const response = toApiResponse(raw.status, parsed.body);
    if ('problem' in response) throw this.#unexpected(method, this.#url(path), raw.status, response.problem, this.#secrets(call));
    return response;
  }

  #unexpected(method: string, url: string, status: number, problem: string, secrets: string[]): ApiError {
    const message = scrub(`${method} ${url}: ${statusLine(status)}: unexpected response: ${problem}`, secrets);
    return new ApiError({ cluster: this.cluster, method, url, status, errors: [], message });
  }

  #transportError(call: Call, err: unknown, attempts: number): TransportError {
    const { method, path } = call;
    const secrets = this.#secrets(call);
    const raw = (err as { code?: unknown } | null)?.code;
    const code = typeof raw === 'string' ? raw : undefined;
    const reason = describeTransportFailure(code, err instanceof Error ? err.message : String(err));
    const tries = attempts > 1 ? `, ${attempts} attempts` : '';
    const via = this.#proxy ? ` through proxy ${this.#proxy.display}` : '';
    const message = scrub(`cannot reach ${this.cluster} at ${this.baseUrl}${via}: ${reason} (${method} ${path}${tries})`, secrets);
    return new TransportError({ cluster: this.cluster, method, url: this.#url(path), code, attempts, message });
  }

  /** The raw header list of a request (see sendOnce), Host first. */
  #headers(anonymous: boolean | undefined, payload: string | undefined): string[] {
    const headers = ['Host', this.#endpoint.hostHeader, 'User-Agent', this.#userAgent];
    if (!anonymous) headers.push('X-Vault-Token', this.#token.reveal());
    if (payload !== undefined) headers.push('Content-Type', 'application/json', 'Content-Length', String(Buffer.byteLength(payload)));
    return headers;
  }

  /**
   * What goes in the request line: base path, then each segment checked and encoded once, then
   * the query. Throws RefusedRequestError for a segment the service cannot address.
   */
  #requestPath(method: HttpMethod, path: RequestPath, query: Readonly<Record<string, string>> | undefined): string {
    const segments = typeof path === 'string' ? path.split('/') : path.segments;
    let out = this.#endpoint.basePath;
    for (const segment of segments) {
      const problem = segmentProblem(segment);
      if (problem !== undefined) {
        const shown = shownPath(path);
        throw new RefusedRequestError({
          cluster: this.cluster,
          method,
          path: shown,
          message: `refusing to send ${method} to ${this.cluster}: path ${JSON.stringify(shown)}: segment ${JSON.stringify(segment)} ${problem} (nothing was sent)`,
        });
      }
      out += `/${encodeSegment(segment)}`;
    }
    const params = method === 'LIST' ? { ...query, list: 'true' } : query;
    if (params === undefined) return out;
    let sep = '?';
    for (const [key, value] of Object.entries(params)) {
      out += `${sep}${encodeURIComponent(key)}=${encodeURIComponent(value)}`;
      sep = '&';
    }
    return out;
  }

  /** The URL shown in messages: base URL + path (never the token, which travels in a header). */
  #url(path: string): string {
    return `${this.baseUrl}/${path}`;
  }
}

/** A path as shown in messages: as the caller wrote it, segments joined with "/", unencoded. */
function shownPath(path: RequestPath): string {
  return typeof path === 'string' ? path : path.segments.join('/');
}

/** `404 Not Found`: the reason phrase from Node's table, loaded only when a message needs one. */
function statusLine(status: number): string {
  const { STATUS_CODES } = createRequire(import.meta.url)('node:http') as typeof import('node:http');
  const text = STATUS_CODES[status];
  return text ? `${status} ${text}` : String(status);
}

/** A short reason in plain words; never a stack trace. */
export function describeTransportFailure(code: string | undefined, message: string): string {
  switch (code) {
    case 'ECONNREFUSED':
      return 'connection refused';
    case 'ECONNRESET':
    case 'EPIPE':
      return 'connection closed by the server';
    case 'ENOTFOUND':
      return 'host not found';
    case 'EAI_AGAIN':
      return 'host name lookup failed (temporary)';
    case 'EHOSTUNREACH':
      return 'host unreachable';
    case 'ENETUNREACH':
      return 'network unreachable';
    case 'ETIMEDOUT':
      return 'connection timed out';
    case TIMEOUT_CODE:
    case INVALID_REQUEST_CODE:
    case PROXY_REFUSED_CODE:
      return message;
    case BAD_RESPONSE_CODE:
      return `the answer is not valid HTTP: ${message}`;
  }
  if (code !== undefined && /CERT|SSL|TLS|EPROTO|ISSUER|SIGNATURE|HOSTNAME/.test(code)) {
    return `TLS failure: ${message} (check caCert, or set insecureSkipVerify for a test server)`;
  }
  return code ? `${message} (${code})` : message;
}
