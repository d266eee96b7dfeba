import { isIP } from 'node:net';
import { ConnectionPool } from './connection-pool.js';
import { codedError } from './errors.js';
import { bareHost, type ProxySettings } from './proxy.js';

export { TIMEOUT_CODE } from './connection-pool.js';

/** One answer as received: status, headers (lower-cased names) and the body text. */
export interface RawResponse {
  status: number;
  headers: Record<string, string>;
  text: string;
}

/** Code of the error for a request lockstep refuses to send: a header value or path HTTP cannot carry. */
export const INVALID_REQUEST_CODE = 'ERR_INVALID_CHAR';

export interface Endpoint {
  pool: ConnectionPool;
  /** Path of the base URL, e.g. `/v1` (no trailing slash). */
  basePath: string;
  /** The Host header: the port only when not the scheme's default. */
  hostHeader: string;
  /** Before the path in a request line: the scheme and host when plain http goes through a proxy. */
  targetPrefix: string;
  /** Headers every request carries for the proxy (plain http; a tunnel carries its own). */
  proxyHeaders: string[];
}

/**
 * A keep-alive endpoint for one base URL. One pool per client, never per request: connections
 * are reused across requests, and the client's limiter bounds them (see connection-pool.ts).
 */
export function createEndpoint(baseUrl: URL, trust: { caCert?: string; insecureSkipVerify: boolean }, proxy?: ProxySettings): Endpoint {
  const secure = baseUrl.protocol === 'https:';
  // URL keeps the brackets of an IPv6 host; the socket wants the bare address.
  const host = bareHost(baseUrl.hostname);
  // URL drops the scheme's default port.
  const port = baseUrl.port ? Number(baseUrl.port) : secure ? 443 : 80;
  const hostHeader = baseUrl.hostname + (baseUrl.port ? `:${baseUrl.port}` : '');
  const pool = secure
    ? new ConnectionPool({ host, port, tunnel: proxy, tls: { ca: trust.caCert, rejectUnauthorized: !trust.insecureSkipVerify, servername: isIP(host) === 0 ? host : '' } })
    : new ConnectionPool(proxy ? { host: proxy.host, port: proxy.port } : { host, port });
  // Plain http through a proxy: requests go to the proxy, naming the whole URL (absolute form).
  const viaProxy = !secure && proxy !== undefined;
  return {
    pool,
    hostHeader,
    basePath: baseUrl.pathname.replace(/\/+$/, ''),
    targetPrefix: viaProxy ? `http://${hostHeader}` : '',
    proxyHeaders: viaProxy && proxy.authorization ? ['Proxy-Authorization', proxy.authorization] : [],
  };
}

// What a request line's target and a header's value may hold: visible ASCII (and, in a value,
// spaces and tabs). Anything else, a line break above all, would change the request's meaning.
const TARGET = /^[\x21-\x7e]+$/;
const VALUE = /^[\t\x20-\x7e]*$/;

/**
 * Sends one request and reads the whole answer. Rejects with the socket's error (it has a
 * `code`), with code TIMEOUT_CODE when the full answer takes longer than `timeoutMs`, or
 * INVALID_REQUEST_CODE, before sending, when a header value or the path holds a character HTTP
 * does not allow (the message names the header, never its value).
 *
 * `headers` is a flat list (name, value, name, value, ...) and must include Host. `payload` is
 * sent as UTF-8 with the Content-Length the caller put in `headers`. `maxIdleMs`: see
 * ConnectionPool.exchange.
 */
export function sendOnce(
  endpoint: Endpoint,
  method: string,
  path: string,
  headers: string[],
  payload: string | undefined,
  timeoutMs: number,
  maxIdleMs = Infinity,
): Promise<RawResponse> {
  if (!TARGET.test(path)) return Promise.reject(codedError('the request path holds a character HTTP does not allow', INVALID_REQUEST_CODE));
  let head = `${method} ${endpoint.targetPrefix}${path} HTTP/1.1\r\n`;
  if (endpoint.proxyHeaders.length > 0) headers = [...headers, ...endpoint.proxyHeaders];
  for (let i = 0; i < headers.length; i += 2) {
    const value = headers[i + 1]!;
    if (!VALUE.test(value)) {
      return Promise.reject(codedError(`request header ${headers[i]} holds a character HTTP does not allow`, INVALID_REQUEST_CODE));
    }
    head += `${headers[i]}: ${value}\r\n`;
  }
  head += '\r\n';
  return endpoint.pool.exchange(payload === undefined ? head : head + payload, payload === undefined, timeoutMs, maxIdleMs).then(
    // Bytes first, decoded once at the end: a character split across reads stays whole.
    (res) => ({ status: res.status, headers: res.headers, text: res.body.toString('utf8') }),
  );
}
