import type { IncomingHttpHeaders } from 'node:http';
import * as http from 'node:http';
import * as https from 'node:https';
import { isIP } from 'node:net';
import { createKeepAliveAgent } from './keep-alive-agent.js';

/** One answer as received: status, headers and the body text. */
export interface RawResponse {
  status: number;
  headers: IncomingHttpHeaders;
  text: string;
}

/** Code of the error a request fails with when it gets no full answer in time. */
export const TIMEOUT_CODE = 'LOCKSTEP_TIMEOUT';

export type RequestFn = (options: https.RequestOptions, callback: (res: http.IncomingMessage) => void) => http.ClientRequest;

export interface Endpoint {
  request: RequestFn;
  agent: http.Agent;
  hostname: string;
  port: number;
  /** Path of the base URL, e.g. `/v1` (no trailing slash). */
  basePath: string;
  /** TLS server name (SNI): the host name, '' for an IP address or plain HTTP. Worked out once. */
  servername: string;
  /** The Host header, as Node would write it (port only when not the scheme's default). */
  hostHeader: string;
}

/**
 * A keep-alive endpoint for one base URL. One agent per client, never per request: sockets are
 * reused across requests. The agent opens a socket whenever none is idle: the client's limiter
 * bounds requests in flight, and so the sockets (see keep-alive-agent.ts).
 */
export function createEndpoint(baseUrl: URL, tls: { caCert?: string; insecureSkipVerify: boolean }): Endpoint {
  const secure = baseUrl.protocol === 'https:';
  const agent = createKeepAliveAgent(secure ? { ca: tls.caCert, rejectUnauthorized: !tls.insecureSkipVerify } : undefined);
  // URL keeps the brackets of an IPv6 host; the socket wants the bare address.
  const hostname = baseUrl.hostname.replace(/^\[(.*)\]$/, '$1');
  // URL drops the scheme's default port, so `port` is set only when the Host header needs it.
  const hostHeader = baseUrl.hostname + (baseUrl.port ? `:${baseUrl.port}` : '');
  return {
    hostHeader,
    request: secure ? https.request : http.request,
    agent,
    hostname,
    port: baseUrl.port ? Number(baseUrl.port) : secure ? 443 : 80,
    basePath: baseUrl.pathname.replace(/\/+$/, ''),
    servername: secure && isIP(hostname) === 0 ? hostname : '',
  };
}

/**
 * Sends one request and reads the whole answer. Rejects with Node's error (it has a `code`), or
 * with code TIMEOUT_CODE when the full answer takes longer than `timeoutMs`.
 *
 * `headers` is a raw list (name, value, name, value, ...) and must include Host: Node then writes
 * it as given (still validating every name and value) instead of building and checking a header
 * map per request, a measurable share of a request's cost when a plan sends thousands.
 */
export function sendOnce(
  endpoint: Endpoint,
  method: string,
  path: string,
  headers: string[],
  payload: string | undefined,
  timeoutMs: number,
): Promise<RawResponse> {
  return new Promise((resolve, reject) => {
    let settled = false;
    const fail = (err: Error): void => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      req.destroy();
      reject(err);
    };
    const req = endpoint.request(
      { hostname: endpoint.hostname, port: endpoint.port, servername: endpoint.servername, path, method, headers, agent: endpoint.agent },
      (res) => {
        // Bytes first, decoded once at the end: a character split across chunks stays whole.
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => {
          chunks.push(chunk);
        });
        res.on('end', () => {
          if (settled) return;
          settled = true;
          clearTimeout(timer);
          const text = chunks.length === 1 ? chunks[0]!.toString('utf8') : Buffer.concat(chunks).toString('utf8');
          // The header map, not a getter over `res`: a getter would keep the whole response (its
          // socket and parser) alive as long as the answer, which made garbage collection slower.
          resolve({ status: res.statusCode ?? 0, headers: res.headers, text });
        });
        // Also how a connection closed in the middle of the body shows (ECONNRESET "aborted").
        res.on('error', fail);
      },
    );
    // A timer for the whole exchange (connect, send, wait, read), not only socket idleness.
    const timer = setTimeout(() => fail(withCode(new Error(`timed out after ${timeoutMs}ms`), TIMEOUT_CODE)), timeoutMs);
    req.on('error', fail);
    req.end(payload);
  });
}

function withCode(err: Error, code: string): Error {
  return Object.assign(err, { code });
}
