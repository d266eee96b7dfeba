import { createRequire } from 'node:module';
import * as net from 'node:net';
import type * as Tls from 'node:tls';
import { codedError } from './errors.js';
import { Http1ResponseReader, type Http1Response } from './http1-response.js';
import { openTunnel, type TunnelProxy } from './tunnel.js';

/** Code of the error a request fails with when it gets no full answer in time. */
export const TIMEOUT_CODE = 'LOCKSTEP_TIMEOUT';

/** Where a pool connects, and for https the trust settings. */
export interface PoolTarget {
  host: string;
  port: number;
  tls?: { ca?: string; rejectUnauthorized: boolean; servername: string };
  /**
   * For https through a proxy: each connection is a CONNECT tunnel through it, TLS end to end.
   * (Plain http through a proxy needs no tunnel: `host` and `port` are then the proxy's.)
   */
  tunnel?: TunnelProxy;
}

/** One request on a connection: the reader of its answer and what to tell the caller. */
interface Exchange {
  reader: Http1ResponseReader;
  resolve: (res: Http1Response) => void;
  reject: (err: Error) => void;
  timer: NodeJS.Timeout;
}

class Connection {
  exchange: Exchange | undefined;
  /** When it last became idle (performance.now()), and for how long it may stay so. */
  idleSince = 0;
  idleMs = Infinity;
  constructor(readonly socket: net.Socket) {}
}

/**
 * Keep-alive HTTP/1.1 connections to one server, written and read directly on the sockets.
 *
 * Node's http client spends most of a small request's CPU on machinery lockstep does not use
 * (streams for bodies of a few hundred bytes, an event per header block, agents that queue per
 * host); with thousands of small requests per plan that machinery cost more than lockstep's own
 * work (see the README's Benchmarks). Here a request is one write, its answer is read by
 * Http1ResponseReader, and the connection goes back on a stack of idle ones.
 *
 * The pool does not bound connections: the client's limiter bounds requests in flight, and a
 * request takes the connection freed last or opens one. An idle connection is unref'd (it keeps
 * no process alive), dropped when the server closes it, and not reused once the server's
 * Keep-Alive timeout is near (a second early, as Node's Agent does).
 */
export class ConnectionPool {
  readonly #target: PoolTarget;
  readonly #idle: Connection[] = [];
  readonly #all = new Set<Connection>();
  /** One TLS context for every connection: the CA certificate is parsed once, not per connection. */
  #secureContext: Tls.SecureContext | undefined;

  constructor(target: PoolTarget) {
    this.#target = target;
  }

  /**
   * Sends `request` (the whole request: head and body; ASCII head, UTF-8 body) and resolves with
   * the answer. Rejects with the socket's error (it has a `code`), ECONNRESET when the
   * connection ends before the answer does, BAD_RESPONSE_CODE, or TIMEOUT_CODE when the whole
   * exchange (connect, send, wait, read) takes longer than `timeoutMs`.
   *
   * `maxIdleMs`: reuse only a connection idle for less than that, else open one. For a request
   * that must not be sent twice: a connection that sat idle (while someone read a plan before
   * approving it) may have been dropped by a load balancer without a word, and a request sent on
   * it fails in a way that cannot tell whether the server acted on it.
   */
  exchange(request: string, ascii: boolean, timeoutMs: number, maxIdleMs = Infinity): Promise<Http1Response> {
    const idle = this.#takeIdle(maxIdleMs);
    if (idle || !this.#target.tunnel) return this.#exchangeOn(idle ?? this.#adopt(this.#open()), request, ascii, timeoutMs);
    // The timeout covers the tunnel's setup and the exchange together.
    const started = performance.now();
    const { host, port } = this.#target;
    return openTunnel(this.#target.tunnel, `${host.includes(':') ? `[${host}]` : host}:${port}`, timeoutMs, () => timedOut(timeoutMs)).then((socket) =>
      this.#exchangeOn(this.#adopt(this.#open(socket)), request, ascii, Math.max(1, timeoutMs - (performance.now() - started)), timeoutMs),
    );
  }

  #exchangeOn(conn: Connection, request: string, ascii: boolean, timeoutMs: number, shownMs = timeoutMs): Promise<Http1Response> {
    return new Promise<Http1Response>((resolve, reject) => {
      const exchange: Exchange = {
        reader: new Http1ResponseReader(),
        resolve,
        reject,
        timer: setTimeout(() => {
          // Only while this exchange is the connection's: once answered, it may carry another.
          if (conn.exchange === exchange) this.#fail(conn, timedOut(shownMs));
        }, timeoutMs),
      };
      conn.exchange = exchange;
      conn.socket.write(request, ascii ? 'latin1' : 'utf8');
    });
  }

  /** Closes every connection, idle or not. */
  destroy(): void {
    for (const conn of this.#all) conn.socket.destroy();
    this.#all.clear();
    this.#idle.length = 0;
  }

  #takeIdle(maxIdleMs: number): Connection | undefined {
    const now = performance.now();
    for (let conn = this.#idle.pop(); conn; conn = this.#idle.pop()) {
      const idleFor = now - conn.idleSince;
      if (!conn.socket.destroyed && idleFor < conn.idleMs && idleFor < maxIdleMs) {
        conn.socket.ref();
        return conn;
      }
      this.#drop(conn);
    }
    return undefined;
  }

  /** A socket to the server: TCP, TLS, or TLS over a tunnel (`through`). */
  #open(through?: net.Socket): net.Socket {
    const { host, port, tls: trust } = this.#target;
    return trust
      ? loadTls().connect({
          // `host` also with a tunnel: the certificate is checked against it (or `servername`).
          host,
          ...(through ? { socket: through } : { port }),
          // SNI only for a host name (Node's https does the same); the certificate is checked
          // against the host either way.
          servername: trust.servername || undefined,
          // Without `ca`, Node's default roots (and NODE_EXTRA_CA_CERTS); with it, that CA alone.
          secureContext: (this.#secureContext ??= loadTls().createSecureContext({ ca: trust.ca })),
          rejectUnauthorized: trust.rejectUnauthorized,
          ALPNProtocols: ['http/1.1'],
        })
      : net.connect({ host, port });
  }

  /** Makes `socket` one of the pool's connections. */
  #adopt(socket: net.Socket): Connection {
    socket.setNoDelay(true);
    // TCP keep-alive probes after a second of silence, as Node's keep-alive Agent sets them: an
    // idle connection a middlebox dropped is then found broken (and left) sooner.
    socket.setKeepAlive(true, 1000);
    const conn = new Connection(socket);
    this.#all.add(conn);
    socket.on('data', (chunk: Buffer) => this.#onData(conn, chunk));
    socket.on('end', () => this.#onEnd(conn));
    socket.on('error', (err: Error) => this.#fail(conn, err));
    // A reset shows as 'error' first; a close with an exchange still open ends it as 'end' would.
    socket.on('close', () => this.#onEnd(conn));
    return conn;
  }

  #onData(conn: Connection, chunk: Buffer): void {
    const exchange = conn.exchange;
    if (!exchange) {
      // Bytes nobody asked for: the connection can no longer be trusted to frame an answer.
      this.#drop(conn);
      return;
    }
    let res: Http1Response | undefined;
    try {
      res = exchange.reader.push(chunk);
    } catch (err) {
      this.#fail(conn, err as Error);
      return;
    }
    if (res) this.#settle(conn, exchange, res);
  }

  #onEnd(conn: Connection): void {
    const exchange = conn.exchange;
    if (!exchange) {
      this.#drop(conn);
      return;
    }
    let res: Http1Response;
    try {
      res = exchange.reader.end();
    } catch (err) {
      this.#fail(conn, err as Error);
      return;
    }
    this.#settle(conn, exchange, { ...res, keepAlive: false });
  }

  #settle(conn: Connection, exchange: Exchange, res: Http1Response): void {
    clearTimeout(exchange.timer);
    conn.exchange = undefined;
    if (res.keepAlive && res.extra === 0 && !conn.socket.destroyed) {
      conn.idleMs = idleMsOf(res.headers['keep-alive']);
      conn.idleSince = performance.now();
      if (conn.idleMs > 0) {
        conn.socket.unref();
        this.#idle.push(conn);
      } else {
        this.#drop(conn);
      }
    } else {
      this.#drop(conn);
    }
    exchange.resolve(res);
  }

  #fail(conn: Connection, err: Error): void {
    const exchange = conn.exchange;
    conn.exchange = undefined;
    this.#drop(conn);
    if (exchange) {
      clearTimeout(exchange.timer);
      exchange.reject(err);
    }
  }

  #drop(conn: Connection): void {
    if (!conn.socket.destroyed) conn.socket.destroy();
    this.#all.delete(conn);
    const i = this.#idle.indexOf(conn);
    if (i >= 0) this.#idle.splice(i, 1);
  }
}

// TLS loads on first use: a plain-HTTP run (the embedded server) need not load it.
let tlsModule: typeof Tls | undefined;
function loadTls(): typeof Tls {
  return (tlsModule ??= createRequire(import.meta.url)('node:tls') as typeof Tls);
}

function timedOut(timeoutMs: number): Error {
  return codedError(`timed out after ${timeoutMs}ms`, TIMEOUT_CODE);
}

/**
 * How long a connection may wait for its next request, from the server's `Keep-Alive: timeout=N`
 * (seconds): a second less than the server waits, as Node's Agent does, so that a request is
 * never sent on a connection the server is closing. Infinity without a hint; 0: do not keep it.
 */
export function idleMsOf(header: string | undefined): number {
  const seconds = header === undefined ? undefined : /^timeout=(\d+)/.exec(header)?.[1];
  return seconds === undefined ? Infinity : Math.max(0, Number(seconds) * 1000 - 1000);
}
