import { createRequire } from 'node:module';
import type * as Tls from 'node:tls';
import type { Client as UndiciClient, Dispatcher, Pool as UndiciPool, ProxyAgent as UndiciProxyAgent } from 'undici';
import { codedError } from './errors.js';
import type { ProxySettings } from './proxy.js';

/** One answer as received: status, headers (lower-cased names) and the body text. */
export interface RawResponse {
  status: number;
  headers: Record<string, string>;
  text: string;
}

/** Code of the error for a request lockstep refuses to send: a header value HTTP cannot carry. */
export const INVALID_REQUEST_CODE = 'ERR_INVALID_CHAR';
/** Code of the error a request fails with when it gets no full answer in time (see Exchange.timedOut). */
export const TIMEOUT_CODE = 'LOCKSTEP_TIMEOUT';
/** Code of the error when the answer is not valid HTTP (or breaks its own framing). Not retried. */
export const BAD_RESPONSE_CODE = 'LOCKSTEP_BAD_RESPONSE';

/** Bounds on what a server may make lockstep hold: a hostile or broken one gets an error. */
export const MAX_BODY_BYTES = 256 * 1024 * 1024;

/** The error for an answer over MAX_BODY_BYTES, whether it says so (Content-Length) or sends it. */
function tooLarge(what: string): Error {
  return codedError(`${what}, more than the ${MAX_BODY_BYTES.toLocaleString('en-US')} bytes (256 MiB) lockstep reads of an answer`, BAD_RESPONSE_CODE);
}

/**
 * A call that is not retried goes only on a connection idle for less than this, else on a new
 * one: during an apply connections are idle for milliseconds, after an approval prompt for as
 * long as someone read the plan, and a load balancer may have dropped such a connection without
 * a word; a request sent on it fails in a way that cannot tell whether the server acted on it.
 */
export const FRESH_MAX_IDLE_MS = 1000;

export interface TransportOptions {
  /**
   * Connections per set at most: the most requests the client's limiter lets be in flight. Above
   * it undici would open one for a request that comes while an idle connection is still being
   * checked (for a turn of the event loop, before reuse), and the set would grow to twice that.
   */
  maxConnections: number;
  /** TCP connect plus TLS handshake (and a proxy's CONNECT), per connection. */
  connectTimeoutMs: number;
  trust: { caCert?: string; insecureSkipVerify: boolean };
  proxy?: ProxySettings;
}

/** One request as the transport sends it. */
export interface Exchange {
  method: string;
  /** Path and query, already encoded (see HttpClient's request path). */
  path: string;
  /** Flat list: name, value, name, value, ... (Host and Content-Length are the transport's). */
  headers: string[];
  body: string | undefined;
  /** May it go on any kept-alive connection? If not, only on one idle < FRESH_MAX_IDLE_MS. */
  reusable: boolean;
  /** The whole exchange (waiting for a connection, sending, the answer) must end within this. */
  timeoutMs: number;
  /** The error when `timeoutMs` passes; the caller says which limit that was. */
  timedOut: () => Error;
}

export interface Transport {
  /**
   * Sends one request and reads the whole answer. Rejects with the connection's error (it has
   * a `code`: Node's, or undici's `UND_ERR_*` / `HPE_*`), with `timedOut()`, or with
   * INVALID_REQUEST_CODE, before sending, when a header value holds a character HTTP does not
   * allow (the message names the header, never its value).
   */
  send(exchange: Exchange): Promise<RawResponse>;
  /** Closes every connection. */
  close(): void;
}

/**
 * The transport of one cluster's client, on undici (Node's own HTTP client, the one under
 * fetch): keep-alive connections to the one origin, HTTP/2 where a TLS server offers it (ALPN),
 * through the proxy when there is one (CONNECT for https, absolute-form requests for http).
 *
 * Two sets of connections: one for calls that may be retried, kept alive as the server allows,
 * and one for calls that may not, whose connections close once idle for FRESH_MAX_IDLE_MS (so a
 * POST never goes on a connection that sat idle longer).
 */
export function createTransport(baseUrl: URL, opts: TransportOptions): Transport {
  return new UndiciTransport(baseUrl, opts);
}

class UndiciTransport implements Transport {
  readonly #origin: string;
  readonly #reusable: Dispatcher;
  readonly #fresh: Dispatcher;

  constructor(baseUrl: URL, opts: TransportOptions) {
    this.#origin = baseUrl.origin;
    const secure = baseUrl.protocol === 'https:';
    this.#reusable = dispatcherFor(this.#origin, secure, opts, {});
    // HTTP/1.1 only: its idle connections are closed by the keep-alive timer below; an HTTP/2
    // session has no such timer.
    this.#fresh = dispatcherFor(this.#origin, secure, opts, { keepAliveTimeout: FRESH_MAX_IDLE_MS, keepAliveMaxTimeout: FRESH_MAX_IDLE_MS, h1Only: true });
  }

  send(exchange: Exchange): Promise<RawResponse> {
    const { headers } = exchange;
    for (let i = 1; i < headers.length; i += 2) {
      if (!VALUE.test(headers[i]!)) {
        return Promise.reject(codedError(`request header ${headers[i - 1]} holds a character HTTP does not allow`, INVALID_REQUEST_CODE));
      }
    }
    return new Promise<RawResponse>((resolve, reject) => {
      const handler = new AnswerReader(resolve, reject, exchange);
      (exchange.reusable ? this.#reusable : this.#fresh).dispatch(
        {
          origin: this.#origin,
          method: exchange.method,
          path: exchange.path,
          headers,
          body: exchange.body,
          // The reader's own timer bounds the whole exchange and aborts it (which closes the
          // connection): undici's own timers off, two fewer timers set and cleared per request.
          headersTimeout: 0,
          bodyTimeout: 0,
          // undici's own reading is by method (a POST is not idempotent): an HTTP/2 connection
          // then carries a POST only when nothing else is in flight on it. A call lockstep may
          // retry (a whole-object upsert) may share one.
          idempotent: exchange.reusable,
        },
        handler,
      );
    });
  }

  close(): void {
    // destroy, not close: nothing is waited for, and the promise only says it is done.
    void this.#reusable.destroy().catch(() => undefined);
    void this.#fresh.destroy().catch(() => undefined);
  }
}

// What a header's value may hold: visible ASCII, spaces and tabs. Anything else, a line break
// above all, would change the request's meaning.
const VALUE = /^[\t\x20-\x7e]*$/;

/**
 * Reads one answer (undici's handler interface): the status, the headers and the body, settled
 * once. The timer covers the whole exchange; if it fires before undici gave the request a
 * connection, the request is aborted as soon as it gets one.
 */
class AnswerReader implements Dispatcher.DispatchHandler {
  #status = 0;
  #headers: Record<string, string> = {};
  readonly #parts: Buffer[] = [];
  #bytes = 0;
  #controller: Dispatcher.DispatchController | undefined;
  #settled = false;
  /** Why the exchange ended before its answer did, to abort a request undici starts after that. */
  #failure: Error | undefined;
  readonly #timer: NodeJS.Timeout;

  constructor(
    private readonly resolve: (res: RawResponse) => void,
    private readonly reject: (err: Error) => void,
    exchange: Exchange,
  ) {
    this.#timer = setTimeout(() => {
      const err = exchange.timedOut();
      this.#controller?.abort(err);
      this.#fail(err);
    }, exchange.timeoutMs);
  }

  onRequestStart(controller: Dispatcher.DispatchController): void {
    this.#controller = controller;
    if (this.#failure) controller.abort(this.#failure);
  }

  onResponseStart(controller: Dispatcher.DispatchController, statusCode: number, headers: Record<string, string | string[] | undefined>): void {
    // 1xx answers never reach here: undici reads past them.
    this.#status = statusCode;
    const flat: Record<string, string> = {};
    for (const key of Object.keys(headers)) {
      const value = headers[key];
      if (value !== undefined) flat[key] = Array.isArray(value) ? value.join(', ') : value;
    }
    this.#headers = flat;
    // A declared length over the cap is refused now: waiting for a body that size (or for one
    // that never comes) would only hold the request until its timeout.
    const declared = declaredLength(flat['content-length']);
    if (declared !== undefined && declared > MAX_BODY_BYTES) {
      const err = tooLarge(`the answer declares a body of ${declared.toLocaleString('en-US')} bytes (Content-Length)`);
      controller.abort(err);
      this.#fail(err);
    }
  }

  onResponseData(controller: Dispatcher.DispatchController, chunk: Buffer): void {
    this.#bytes += chunk.length;
    if (this.#bytes > MAX_BODY_BYTES) {
      const err = tooLarge('the answer is larger');
      controller.abort(err);
      this.#fail(err);
      return;
    }
    this.#parts.push(chunk);
  }

  onResponseEnd(): void {
    if (this.#settled) return;
    this.#settled = true;
    clearTimeout(this.#timer);
    const parts = this.#parts;
    // Bytes first, decoded once at the end: a character split across chunks stays whole.
    const body = parts.length === 1 ? parts[0]! : Buffer.concat(parts, this.#bytes);
    this.resolve({ status: this.#status, headers: this.#headers, text: body.toString('utf8') });
  }

  onResponseError(_controller: Dispatcher.DispatchController, err: Error): void {
    this.#fail(badResponseOf(err) ?? err);
  }

  #fail(err: Error): void {
    if (this.#settled) return;
    this.#settled = true;
    this.#failure = err;
    clearTimeout(this.#timer);
    this.reject(err);
  }
}

/**
 * The length a Content-Length header declares (the largest, if repeated: undici joins them with
 * ", "); undefined when absent or not digits (undici itself refuses a malformed one).
 */
function declaredLength(header: string | undefined): number | undefined {
  if (header === undefined) return undefined;
  // One length, as nearly every answer has: no split.
  if (DIGITS.test(header)) return Number(header);
  const lengths = header.split(',').map((part) => part.trim());
  if (!lengths.every((n) => DIGITS.test(n))) return undefined;
  return Math.max(...lengths.map(Number));
}

const DIGITS = /^\d+$/;

/**
 * undici's errors for an answer that is not valid HTTP, as one BAD_RESPONSE_CODE error. Its
 * parser's errors carry no code; an answer it cannot place (a 101 lockstep never asked for)
 * fails one of its assertions.
 */
function badResponseOf(err: Error): Error | undefined {
  const code = (err as { code?: unknown }).code;
  if (err.name === 'HTTPParserError') {
    // "Response does not match the HTTP/1.1 protocol (Expected HTTP/, RTSP/ or ICE/)"
    const detail = /\(([^)]*)\)\s*$/.exec(err.message)?.[1];
    return codedError(detail ? `the answer is not valid HTTP/1.1 (${detail})` : 'the answer is not valid HTTP/1.1', BAD_RESPONSE_CODE);
  }
  switch (code) {
    case 'UND_ERR_RES_CONTENT_LENGTH_MISMATCH':
      return codedError('the answer is not valid HTTP/1.1 (its body does not match its Content-Length)', BAD_RESPONSE_CODE);
    case 'UND_ERR_RES_EXCEEDED_MAX_SIZE':
      return tooLarge('the answer is larger');
    case 'UND_ERR_HEADERS_OVERFLOW':
      return codedError('the answer is not valid HTTP/1.1 (its headers are too large)', BAD_RESPONSE_CODE);
    case 'ERR_ASSERTION':
      return codedError('the answer is not valid HTTP/1.1 (lockstep cannot place it)', BAD_RESPONSE_CODE);
    default:
      return undefined;
  }
}

interface DispatcherShape {
  keepAliveTimeout?: number;
  keepAliveMaxTimeout?: number;
  h1Only?: boolean;
}

function dispatcherFor(origin: string, secure: boolean, opts: TransportOptions, shape: DispatcherShape): Dispatcher {
  const { keepAliveTimeout, keepAliveMaxTimeout, h1Only = false } = shape;
  const allowH2 = secure && !h1Only;
  const tls = secure ? tlsOptions(opts.trust) : {};
  const timing = {
    ...(keepAliveTimeout !== undefined ? { keepAliveTimeout } : {}),
    ...(keepAliveMaxTimeout !== undefined ? { keepAliveMaxTimeout } : {}),
    maxResponseSize: MAX_BODY_BYTES,
    connections: opts.maxConnections,
  };
  const { proxy } = opts;
  const Pool = loadUndici<typeof UndiciPool>('undici/lib/dispatcher/pool.js');
  if (proxy === undefined) {
    return new Pool(origin, { ...timing, allowH2, connect: { ...tls, timeout: opts.connectTimeoutMs }, ...(allowH2 ? { factory: multiplexingClient } : {}) });
  }
  // The whole package: its proxy agent uses the API methods (connect) the package's entry adds.
  const { ProxyAgent } = loadUndici<{ ProxyAgent: typeof UndiciProxyAgent }>('undici');
  return new ProxyAgent({
    ...timing,
    uri: proxy.url,
    ...(proxy.authorization !== undefined ? { token: proxy.authorization } : {}),
    allowH2,
    // Plain http goes to the proxy as absolute-form requests; https through a CONNECT tunnel,
    // TLS end to end (the proxy sees only encrypted bytes).
    proxyTunnel: secure,
    requestTls: { ...tls, allowH2, timeout: opts.connectTimeoutMs },
    proxyTls: { timeout: opts.connectTimeoutMs },
    // The server's pool behind the proxy multiplexes as the direct one does: an HTTP/2
    // connection through its tunnel carries many requests, not one each.
    ...(allowH2 ? { factory: (at: string | URL, options: object) => new Pool(at, { ...options, factory: multiplexingClient }) } : {}),
  });
}

/** Requests one HTTP/2 connection carries at once: undici's (and Node's) default stream limit. */
const H2_STREAMS = 100;

/**
 * A connection of an HTTP/2-capable pool that carries many requests at once when HTTP/2 is
 * agreed. undici's Client sets `pipelining` to 1 unless told otherwise, on HTTP/2 too: the pool
 * then opens a TLS connection per request in flight (121 sessions for 121 in flight, measured).
 * So the number follows the protocol each connection agreed by ALPN: 1 on HTTP/1.1 (no HTTP/1.1
 * pipelining, which servers and load balancers handle badly), H2_STREAMS on HTTP/2.
 */
function multiplexingClient(origin: URL | string, options: UndiciClient.Options): Dispatcher {
  const Client = loadUndici<typeof UndiciClient>('undici/lib/dispatcher/client.js');
  const connect = options.connect as (opts: object, done: (err: Error | null, socket: Tls.TLSSocket | null) => void) => void;
  const client: UndiciClient = new Client(origin, {
    ...options,
    connect: (opts: object, done: (err: Error | null, socket: Tls.TLSSocket | null) => void) =>
      connect(opts, (err, socket) => {
        if (!err && socket) client.pipelining = socket.alpnProtocol === 'h2' ? H2_STREAMS : 1;
        done(err, socket);
      }),
  } as UndiciClient.Options);
  return client;
}

/** One TLS context per client: the CA certificate is parsed once, not per connection. */
function tlsOptions(trust: TransportOptions['trust']): Tls.ConnectionOptions {
  return {
    rejectUnauthorized: !trust.insecureSkipVerify,
    // Without `ca`, Node's default roots (and NODE_EXTRA_CA_CERTS); with it, that CA alone.
    ...(trust.caCert !== undefined ? { secureContext: loadTls().createSecureContext({ ca: trust.caCert }) } : {}),
  };
}

// Loaded on first use, and without a proxy only the pool: `require('undici')` loads fetch,
// WebSocket and the rest too (about 0.1 s at start-up against 0.03 s for the pool alone).
function loadUndici<T>(module: 'undici' | 'undici/lib/dispatcher/pool.js' | 'undici/lib/dispatcher/client.js'): T {
  baselineWasmOnly();
  return createRequire(import.meta.url)(module) as T;
}

/**
 * undici parses answers with llhttp compiled to WebAssembly. V8 first compiles it with its
 * baseline compiler (Liftoff), then recompiles the hot functions with its optimising one in the
 * background: for a run of a few thousand requests that second compile cost more than it saved
 * (2,002 requests: about 0.1 s more CPU and 35 MB more peak memory; 20,000: still 0.08 s more
 * CPU). So this process compiles WebAssembly with Liftoff only. The flag is read when a module
 * is compiled, and undici compiles its parser on its first connection, after this. The only
 * other WebAssembly lockstep holds (openpgp's Argon2, in the emulator) runs alike under Liftoff.
 */
let wasmFlagSet = false;
function baselineWasmOnly(): void {
  if (wasmFlagSet) return;
  wasmFlagSet = true;
  (createRequire(import.meta.url)('node:v8') as typeof import('node:v8')).setFlagsFromString('--liftoff-only');
}

// TLS loads on first use: a plain-HTTP run (the embedded server) need not load it.
let tlsModule: typeof Tls | undefined;
function loadTls(): typeof Tls {
  return (tlsModule ??= createRequire(import.meta.url)('node:tls') as typeof Tls);
}
