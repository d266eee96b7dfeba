import { createRequire } from 'node:module';
import { describeAuth, type ClusterAuth, type ClusterTarget } from '../core/cluster.js';
import type { JsonObject } from '../core/json.js';
import { collectSecretTexts, revealDeep, scrub, Secret } from '../core/secret.js';
import { loginRequest, loginToken, tokenEndpoint, tokenFacts } from './login.js';
import { ApiError, RefusedRequestError, TransportError } from './errors.js';
import type { ConcurrencyLimiter, OutcomeOf } from './limiter.js';
import { errorsOf, parseBody, snippet, toApiResponse } from './response.js';
import { backoffDelay, DEFAULT_BACKOFF, isRetryableStatus, parseRetryAfter, retryDelay, sleep, type BackoffPolicy } from './retry.js';
import { proxyFor, type ProxySettings } from './proxy.js';
import { BAD_RESPONSE_CODE, createTransport, INVALID_REQUEST_CODE, TIMEOUT_CODE, type RawResponse, type Transport } from './transport.js';
import { DEADLINE_CODE, formatMs, type RunDeadline } from './deadline.js';
import { codedError } from './errors.js';
import { encodeSegment, isPlainSegment, segmentProblem } from '../core/path-segment.js';
import type { ApiResponse, ClusterClient, ExchangeReport, HttpMethod, RequestOptions, RequestPath } from './types.js';

export interface ClientOptions {
  /** This cluster's: bounds its requests in flight (`--concurrency`, adaptive by default). */
  limiter: ConcurrencyLimiter;
  /** Per attempt, for the whole exchange. Default 30000. */
  timeoutMs?: number;
  /** Per connection: TCP connect and TLS handshake (and a proxy's CONNECT). Default 10000. */
  connectTimeoutMs?: number;
  /** The run's total deadline (`--timeout`), shared by every client of the run; none by default. */
  deadline?: RunDeadline;
  /** Further attempts after the first, for idempotent calls only. Default 4. */
  retries?: number;
  userAgent?: string;
  /** Backoff timings (tests shorten them). */
  backoff?: Partial<BackoffPolicy>;
  /** Waits before a retry; default: a timer. Tests pass one that records the wait instead of sleeping. */
  wait?: (ms: number) => Promise<void>;
  /** The HTTP proxy to go through; default: from the environment (see proxy.ts); null: none. */
  proxy?: ProxySettings | null;
  /** Told each secret the client comes by (a login's token) before anything can print it: the run's redaction set. */
  onSecret?: (text: string) => void;
  /** Told of every exchange, each attempt once (the request log); absent, exchanges cost nothing more. */
  onExchange?: (exchange: ExchangeReport) => void;
  /** Milliseconds from some fixed point, for the exchanges' times; default: performance.now. Tests pass their clock. */
  now?: () => number;
}

/** A ClusterClient that owns sockets: `close()` ends its connections. */
export interface HttpClusterClient extends ClusterClient {
  close(): void;
  /** Revokes the token of this run's login (`auth/token/revoke-self`), if it logged in; a given token is left alone. */
  logout(): Promise<void>;
}

const DEFAULT_TIMEOUT_MS = 30_000;
const DEFAULT_CONNECT_TIMEOUT_MS = 10_000;
export const DEFAULT_RETRIES = 4;
const DEFAULT_USER_AGENT = 'lockstep/0.1';

export function createClusterClient(target: ClusterTarget, opts: ClientOptions): HttpClusterClient {
  return new HttpClient(target, opts);
}

/**
 * Error codes worth another attempt: the connection failed, not the request. Not among them:
 * TLS failures (a certificate or protocol mismatch fails the same way every time), an answer
 * that is not HTTP, a proxy's refusal, the run's deadline.
 */
const RETRYABLE_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'EPIPE',
  'ECONNABORTED',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'EAI_AGAIN',
  // undici: the server closed the connection before the answer was whole.
  'UND_ERR_SOCKET',
]);

/**
 * Waits that ran out. Retried once at most: a lost connection or a short stall is covered by one
 * more try, while a server that does not answer at all would otherwise hold the run for
 * (attempts × timeout), 150 s with the defaults, before anyone hears of it.
 */
const TIMEOUT_CODES = new Set(['ETIMEDOUT', TIMEOUT_CODE, 'UND_ERR_CONNECT_TIMEOUT', 'UND_ERR_HEADERS_TIMEOUT', 'UND_ERR_BODY_TIMEOUT']);
const MAX_TIMEOUT_RETRIES = 1;

/**
 * What an exchange tells the limiter: a refusal for load (429, 503) or a wait that ran out is
 * "too much"; any other answer is a latency sample; other failures say nothing of load.
 */
const exchangeOutcome: OutcomeOf<RawResponse> = (raw, error) => {
  if (raw !== undefined) return raw.status === 429 || raw.status === 503 ? 'dropped' : 'ok';
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' && TIMEOUT_CODES.has(code) ? 'dropped' : 'ignored';
};

const NOT_FOUND_OK: RequestOptions = Object.freeze({ okStatuses: Object.freeze([404]) as number[] });

/** One request as prepared once and carried through its attempts. */
/** A call the client refused to send (it never reached the network): said as it is, never retried. */
class NotSentError extends Error {}

interface Call {
  method: HttpMethod;
  /** The path as shown in messages: the segments joined with "/", unencoded. */
  path: string;
  opts: RequestOptions;
  requestPath: string;
  payload: string | undefined;
  idempotent: boolean;
  timeoutMs: number;
  /** Attempts so far that ran out of time. */
  timeouts: number;
  /** The token sent (none for anonymous calls). */
  token: Secret | undefined;
  /** On a 401/403, say where the token came from and what lookup-self says of it. */
  explain: boolean;
  /** The revoke of the run's login (logout): the one call still sent with that token. */
  revokes: boolean;
}

class HttpClient implements HttpClusterClient {
  readonly cluster: string;
  readonly baseUrl: string;
  readonly #auth: ClusterAuth;
  /** Where the credentials came from and how they are used, for messages. */
  readonly #authWords: string;
  readonly #onSecret: ((text: string) => void) | undefined;
  readonly #onExchange: ((exchange: ExchangeReport) => void) | undefined;
  readonly #now: () => number;
  /** The login of this run (once, on the first request that needs a token). */
  #session: Promise<Secret> | undefined;
  /** The login token once logout() revokes it (see #send). */
  #revoked: Secret | undefined;
  /** What lookup-self says of the token, asked once, on the first 401/403. */
  #facts: Promise<string> | undefined;
  readonly #limiter: ConcurrencyLimiter;
  readonly #transport: Transport;
  readonly #proxy: ProxySettings | undefined;
  readonly #timeoutMs: number;
  readonly #connectTimeoutMs: number;
  readonly #deadline: RunDeadline | undefined;
  readonly #retries: number;
  readonly #userAgent: string;
  readonly #backoff: BackoffPolicy;
  readonly #wait: (ms: number) => Promise<void>;
  readonly #basePath: string;
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
    this.#auth = target.auth;
    this.#authWords = describeAuth(target);
    this.#onSecret = opts.onSecret;
    this.#onExchange = opts.onExchange;
    this.#now = opts.now ?? (() => performance.now());
    this.#limiter = opts.limiter;
    try {
      this.#proxy = opts.proxy === undefined ? proxyFor(url) : (opts.proxy ?? undefined);
    } catch (err) {
      throw new Error(`cluster ${target.name}: ${(err as Error).message}`);
    }
    this.#connectTimeoutMs = opts.connectTimeoutMs ?? DEFAULT_CONNECT_TIMEOUT_MS;
    this.#transport = createTransport(url, {
      connectTimeoutMs: this.#connectTimeoutMs,
      maxConnections: opts.limiter.size,
      trust: { caCert: target.caCert, insecureSkipVerify: target.insecureSkipVerify },
      ...(this.#proxy ? { proxy: this.#proxy } : {}),
    });
    this.#basePath = url.pathname.replace(/\/+$/, '');
    this.#timeoutMs = opts.timeoutMs ?? DEFAULT_TIMEOUT_MS;
    this.#deadline = opts.deadline;
    this.#retries = opts.retries ?? DEFAULT_RETRIES;
    this.#userAgent = opts.userAgent ?? DEFAULT_USER_AGENT;
    this.#backoff = { ...DEFAULT_BACKOFF, ...opts.backoff };
    this.#wait = opts.wait ?? sleep;
  }

  get requestCount(): number {
    return this.#requestCount;
  }

  get concurrency(): number {
    return this.#limiter.demand;
  }

  close(): void {
    this.#transport.close();
  }

  // read/delete chain with .then rather than async frames: a plan may queue thousands of
  // calls at once, and every suspended frame is memory the garbage collector walks.
  read(path: RequestPath): Promise<JsonObject | null> {
    return this.request('GET', path, NOT_FOUND_OK).then((res) => {
      if (res.status === 404) return null;
      // An object's read answers with its data: anything else (null, none) is not "empty".
      if (res.data === null) throw this.#unexpected('GET', this.#url(shownPath(path)), res.status, '"data" is not an object', this.#credentialTexts());
      return res.data;
    });
  }

  write(path: RequestPath, body: unknown, opts: { idempotent?: boolean } = {}): Promise<ApiResponse> {
    return this.request('POST', path, { body, idempotent: opts.idempotent });
  }

  delete(path: RequestPath): Promise<void> {
    return this.request('DELETE', path, NOT_FOUND_OK).then(() => undefined);
  }

  request(method: HttpMethod, path: RequestPath, opts: RequestOptions = {}): Promise<ApiResponse> {
    if (opts.anonymous) return this.#start(method, path, opts, undefined, false);
    const token = this.#token();
    return token instanceof Secret ? this.#start(method, path, opts, token, true) : token.then((t) => this.#start(method, path, opts, t, true));
  }

  async logout(): Promise<void> {
    const token = await this.#session?.catch(() => undefined);
    if (token === undefined) return;
    // From now on the token is being revoked: a call still waiting for its turn (a run stopped by
    // a signal leaves some) is not sent with it, before or after the revoke.
    this.#revoked = token;
    await this.#start('POST', tokenEndpoint(this.#auth, 'revoke-self'), { idempotent: true }, token, false, true);
  }

  /** The token to send: the one given, or the run's login (made on the first call that needs it). */
  #token(): Secret | Promise<Secret> {
    const auth = this.#auth;
    if (auth.method === 'token') return auth.token;
    return (this.#session ??= this.#login(auth));
  }

  /**
   * Logs in through this same client (its retries, timeouts and scrubbing), without a token. A
   * failure names the cluster, its address and the login; every call of the run gets it.
   */
  async #login(auth: Exclude<ClusterAuth, { method: 'token' }>): Promise<Secret> {
    const { segments, body } = loginRequest(auth);
    for (const text of collectSecretTexts(body)) this.#onSecret?.(text);
    const failed = (err: unknown): Error => {
      const message = `cannot log in to ${this.cluster} at ${this.baseUrl} with ${this.#authWords}: ${(err as Error).message}`;
      if (err instanceof ApiError) return new ApiError({ cluster: err.cluster, method: err.method, url: err.url, status: err.status, errors: err.errors, message });
      if (err instanceof TransportError) return new TransportError({ cluster: err.cluster, method: err.method, url: err.url, code: err.code, attempts: err.attempts, message });
      return err instanceof Error ? err : new Error(String(err));
    };
    // A login is retried like a read: a second token at worst, which expires by its TTL.
    const res = await this.#start('POST', { segments }, { body, anonymous: true, idempotent: true }, undefined, false).catch((err: unknown) => {
      throw failed(err);
    });
    const token = loginToken(res.auth);
    if (typeof token !== 'string') throw failed(this.#unexpected('POST', this.#url(segments.join('/')), res.status, token.problem, this.#credentialTexts()));
    this.#onSecret?.(token);
    return new Secret(token, `login:${auth.method}`);
  }

  #start(method: HttpMethod, path: RequestPath, opts: RequestOptions, token: Secret | undefined, explain: boolean, revokes = false): Promise<ApiResponse> {
    let call: Call;
    try {
      call = {
        revokes,
        method,
        path: shownPath(path),
        opts,
        requestPath: this.#requestPath(method, path, opts.query),
        payload: opts.body === undefined ? undefined : JSON.stringify(revealDeep(opts.body)),
        idempotent: opts.idempotent ?? method !== 'POST',
        timeoutMs: opts.timeoutMs ?? this.#timeoutMs,
        timeouts: 0,
        token,
        explain,
      };
    } catch (err) {
      return Promise.reject(err);
    }
    return this.#attempt(call, 0);
  }

  /** One attempt. The limiter slot is held for the exchange only, never while waiting to retry. */
  #attempt(call: Call, attempt: number): Promise<ApiResponse> {
    return this.#limiter.run(() => this.#send(call, attempt), exchangeOutcome).then(
      (raw) => this.#onAnswer(call, raw, attempt),
      (err: unknown) => this.#onFailure(call, err, attempt),
    );
  }

  #send(call: Call, attempt: number): Promise<RawResponse> {
    if (call.token !== undefined && call.token === this.#revoked && !call.revokes) {
      return Promise.reject(new NotSentError(`${this.cluster}: ${call.method} ${call.path}: not sent: the run is ending and its login token is being revoked`));
    }
    // The timer of an attempt is the nearer of the request timeout and the run's deadline.
    const left = this.#deadline?.remainingMs() ?? Infinity;
    if (left <= 0) return Promise.reject(this.#deadline!.reached());
    this.#requestCount++;
    const byDeadline = left < call.timeoutMs;
    const sent = this.#transport.send({
      // LIST goes as GET ?list=true, as the service's own Go client sends it (api/logical.go,
      // "for broader compatibility"): reverse proxies built on Node's HTTP parser, like the one
      // the DR end-to-end test records through, answer the LIST method with 400.
      method: call.method === 'LIST' ? 'GET' : call.method,
      path: call.requestPath,
      headers: this.#headers(call.method, call.token, call.payload),
      body: call.payload,
      reusable: call.idempotent,
      timeoutMs: byDeadline ? left : call.timeoutMs,
      timedOut: byDeadline ? () => this.#deadline!.reached() : () => codedError(`no answer within ${formatMs(call.timeoutMs)}`, TIMEOUT_CODE),
    });
    return this.#onExchange ? this.#observed(call, attempt, sent, this.#onExchange) : sent;
  }

  /**
   * Tells `onExchange` how an exchange went, once it has: here, where every attempt of every
   * request passes (logins, lookup-self, revoke-self and retries included) and each is counted.
   */
  #observed(call: Call, attempt: number, sent: Promise<RawResponse>, onExchange: (exchange: ExchangeReport) => void): Promise<RawResponse> {
    const startedAt = this.#now();
    const tell = (outcome: ExchangeReport['outcome']): void =>
      onExchange({ cluster: this.cluster, method: call.method, path: call.path, query: call.opts.query, attempt: attempt + 1, elapsedMs: this.#now() - startedAt, outcome });
    return sent.then(
      (raw) => {
        tell({ kind: 'answer', status: raw.status });
        return raw;
      },
      (err: unknown) => {
        const code = (err as { code?: unknown } | null)?.code;
        tell({ kind: 'no-answer', code: typeof code === 'string' ? code : 'no code' });
        throw err;
      },
    );
  }

  #onAnswer(call: Call, raw: RawResponse, attempt: number): ApiResponse | Promise<ApiResponse> {
    const accepted = (raw.status >= 200 && raw.status < 300) || (call.opts.okStatuses?.includes(raw.status) ?? false);
    if (!accepted && this.#mayRetry(call, attempt) && isRetryableStatus(raw.status)) {
      const retryAfter = parseRetryAfter(raw.headers['retry-after'], this.#backoff.maxRetryAfterMs);
      return this.#retry(call, attempt, retryDelay(retryAfter, attempt, this.#backoff));
    }
    if (!accepted && call.explain && (raw.status === 401 || raw.status === 403)) {
      return this.#explainToken(call.token!).then((why) => this.#answer(call, raw, accepted, attempt + 1, why));
    }
    return this.#answer(call, raw, accepted, attempt + 1);
  }

  /**
   * For a refusal: the cluster, its address, where the token came from, and what lookup-self
   * says of it (its policies and expiry, never the token), asked once per client.
   */
  #explainToken(token: Secret): Promise<string> {
    this.#facts ??= this.#start('GET', tokenEndpoint(this.#auth, 'lookup-self'), {}, token, false).then(
      (res) => tokenFacts(res.data),
      (err: unknown) =>
        err instanceof ApiError && (err.status === 401 || err.status === 403)
          ? `auth/token/lookup-self refuses it too (${err.status}): it is expired, revoked or not a token of this cluster`
          : 'auth/token/lookup-self could not tell more',
    );
    return this.#facts.then((facts) => `cluster ${this.cluster} at ${this.baseUrl}, token: ${this.#authWords}; ${facts}`);
  }

  #onFailure(call: Call, err: unknown, attempt: number): Promise<ApiResponse> {
    if (err instanceof NotSentError) throw err;
    const code = (err as { code?: unknown } | null)?.code;
    if (typeof code === 'string' && this.#mayRetry(call, attempt)) {
      if (RETRYABLE_CODES.has(code)) return this.#retry(call, attempt, backoffDelay(attempt, this.#backoff));
      if (TIMEOUT_CODES.has(code) && call.timeouts++ < MAX_TIMEOUT_RETRIES) return this.#retry(call, attempt, backoffDelay(attempt, this.#backoff));
    }
    throw this.#transportError(call, err, attempt + 1);
  }

  #mayRetry(call: Call, attempt: number): boolean {
    return call.idempotent && attempt < this.#retries;
  }

  #retry(call: Call, attempt: number, delayMs: number): Promise<ApiResponse> {
    // A retry that could only start after the deadline is not waited for.
    if (this.#deadline !== undefined && delayMs >= this.#deadline.remainingMs()) {
      return Promise.reject(this.#transportError(call, this.#deadline.reached(), attempt + 1));
    }
    return this.#wait(delayMs).then(() => this.#attempt(call, attempt + 1));
  }

  /** Texts to scrub from any message built from an answer: a server may echo what it was sent. */
  #secrets(call: Call): string[] {
    const proxyCredentials = this.#proxy?.authorization ? [this.#proxy.authorization, ...basicCredentials(this.#proxy.authorization)] : [];
    return [...this.#credentialTexts(), ...(call.token ? [call.token.reveal()] : []), ...proxyCredentials, ...collectSecretTexts(call.opts.body)];
  }

  /** The credentials given for this cluster (a token, a JWT, a role_id and secret_id). */
  #credentialTexts(): string[] {
    return [...collectSecretTexts(this.#auth)];
  }

  /** Turns a received answer into an ApiResponse, or the ApiError it stands for. */
  #answer(call: Call, raw: RawResponse, accepted: boolean, attempts: number, why?: string): ApiResponse {
    const { method, path } = call;
    const parsed = parseBody(raw.text);
    if (!accepted) {
      const url = this.#url(path);
      const secrets = this.#secrets(call);
      const errors = 'body' in parsed ? errorsOf(parsed.body).map((e) => scrub(e, secrets)) : [];
      const detail = 'problem' in parsed ? snippet(raw.text) : errors.join('; ');
      const suffix = attempts > 1 ? ` (after ${attempts} attempts)` : '';
      const context = why === undefined ? '' : ` (${why})`;
      const message = scrub(`${method} ${url}: ${statusLine(raw.status)}${detail ? `: ${detail}` : ''}${suffix}${context}`, secrets);
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
    // The cluster first, as every other message about a server's answer names it.
    const message = scrub(`${this.cluster}: ${method} ${url}: ${statusLine(status)}: unexpected response: ${problem}`, secrets);
    return new ApiError({ cluster: this.cluster, method, url, status, errors: [], message });
  }

  #transportError(call: Call, err: unknown, attempts: number): TransportError {
    const { method, path } = call;
    const secrets = this.#secrets(call);
    const raw = (err as { code?: unknown } | null)?.code;
    const code = typeof raw === 'string' ? raw : undefined;
    const reason = describeTransportFailure(code, err instanceof Error ? err.message : String(err), this.#connectTimeoutMs);
    const tries = attempts > 1 ? `, ${attempts} attempts` : '';
    const via = this.#proxy ? ` through proxy ${this.#proxy.url}` : '';
    const message = scrub(`cannot reach ${this.cluster} at ${this.baseUrl}${via}: ${reason} (${method} ${path}${tries})`, secrets);
    return new TransportError({ cluster: this.cluster, method, url: this.#url(path), code, attempts, message });
  }

  /** The header list of a request (name, value, ...); the transport adds Host and Content-Length. */
  #headers(method: HttpMethod, token: Secret | undefined, payload: string | undefined): string[] {
    const headers = ['user-agent', this.#userAgent];
    if (token) headers.push('x-vault-token', token.reveal());
    // The service refuses a PATCH of any other type (http/logical.go: 415 "PATCH requires Content-Type of application/merge-patch+json").
    if (payload !== undefined) headers.push('content-type', method === 'PATCH' ? 'application/merge-patch+json' : 'application/json');
    return headers;
  }

  /**
   * What goes in the request line: base path, then each segment checked and encoded once, then
   * the query. Throws RefusedRequestError for a segment the service cannot address.
   */
  #requestPath(method: HttpMethod, path: RequestPath, query: Readonly<Record<string, string>> | undefined): string {
    const segments = typeof path === 'string' ? path.split('/') : path.segments;
    let out = this.#basePath;
    for (const segment of segments) {
      if (isPlainSegment(segment)) {
        out += `/${segment}`;
        continue;
      }
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
  return typeof path === 'string' ? path : (path.path ?? path.segments.join('/'));
}

/** `404 Not Found`: the reason phrase from Node's table, loaded only when a message needs one. */
function statusLine(status: number): string {
  const { STATUS_CODES } = createRequire(import.meta.url)('node:http') as typeof import('node:http');
  const text = STATUS_CODES[status];
  return text ? `${status} ${text}` : String(status);
}

/** The user and password of a Basic credential: a proxy may echo either alone. */
function basicCredentials(authorization: string): string[] {
  const encoded = /^Basic (.+)$/.exec(authorization)?.[1];
  if (encoded === undefined) return [];
  const decoded = Buffer.from(encoded, 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  return [decoded, decoded.slice(colon + 1)].filter((s) => s.length >= 4);
}

/** undici's headersTimeout and bodyTimeout when not set (lib/dispatcher/client.js). */
const UNDICI_DEFAULT_TIMEOUT_MS = 300_000;

/** A short reason in plain words; never a stack trace. */
function describeTransportFailure(code: string | undefined, message: string, connectTimeoutMs: number): string {
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
    case 'UND_ERR_CONNECT_TIMEOUT':
      return `connect timeout: no connection within ${formatMs(connectTimeoutMs)}`;
    case 'UND_ERR_SOCKET':
      return 'connection closed by the server';
    // undici's own timers: lockstep turns them off for its requests (its own timer bounds each
    // exchange), so only a proxy's answer to CONNECT can meet them, at undici's default.
    case 'UND_ERR_HEADERS_TIMEOUT':
      return `no answer within ${formatMs(UNDICI_DEFAULT_TIMEOUT_MS)} (the HTTP client's headers timeout)`;
    case 'UND_ERR_BODY_TIMEOUT':
      return `no more of the answer within ${formatMs(UNDICI_DEFAULT_TIMEOUT_MS)} (the HTTP client's body timeout)`;
    case 'UND_ERR_ABORTED': {
      // undici's words for a proxy that answered CONNECT with anything but 200.
      const status = /Proxy response \((\d+)\)/.exec(message)?.[1];
      return status === undefined ? 'request aborted' : `the proxy refused the tunnel: ${status}`;
    }
    case 'UND_ERR_INVALID_ARG':
      return /Proxy Authentication Required/.test(message) ? 'the proxy refused the request: 407' : `lockstep could not send the request (${message})`;
    case TIMEOUT_CODE:
    case DEADLINE_CODE:
    case INVALID_REQUEST_CODE:
    case BAD_RESPONSE_CODE:
      return message;
    default:
      break; // the codes of TLS failures and the rest: below
  }
  if (code !== undefined && /CERT|SSL|TLS|EPROTO|ISSUER|SIGNATURE|HOSTNAME/.test(code)) {
    return `TLS failure: ${message} (check caCert, or set insecureSkipVerify for a test server)`;
  }
  return code ? `${message} (${code})` : message;
}
