import * as http from 'node:http';
import * as https from 'node:https';
import type { AddressInfo } from 'node:net';
import { ListFront } from '../../src/server/http/list-front.js';

export interface Seen {
  method: string;
  url: string;
  headers: http.IncomingHttpHeaders;
  body: string;
}

export type Handler = (req: Seen, res: http.ServerResponse) => void | Promise<void>;

/** A loopback server on port 0 that records what it saw: requests, sockets, requests in flight. */
export interface TestServer {
  /** Base URL, `http(s)://127.0.0.1:<port>/v1`. */
  baseUrl: string;
  port: number;
  seen: Seen[];
  /** Sockets accepted so far. */
  connections: number;
  /** Sockets open now. */
  open: number;
  inFlight: number;
  maxInFlight: number;
  close(): Promise<void>;
}

export async function startServer(handler: Handler, tls?: { key: string; cert: string }): Promise<TestServer> {
  const state = { seen: [] as Seen[], connections: 0, open: 0, inFlight: 0, maxInFlight: 0 };
  const listener: http.RequestListener = (req, res) => {
    state.inFlight++;
    state.maxInFlight = Math.max(state.maxInFlight, state.inFlight);
    let done = false;
    const finish = (): void => {
      if (!done) {
        done = true;
        state.inFlight--;
      }
    };
    res.on('finish', finish);
    res.on('close', finish);
    let body = '';
    req.setEncoding('utf8');
    req.on('data', (c: string) => (body += c));
    req.on('end', () => {
      const seen = { method: req.method ?? '', url: req.url ?? '', headers: req.headers, body };
      state.seen.push(seen);
      void handler(seen, res);
    });
  };
  const server = tls ? https.createServer({ key: tls.key, cert: tls.cert }, listener) : http.createServer(listener);
  server.on(tls ? 'secureConnection' : 'connection', (socket: import('node:stream').Duplex) => {
    state.connections++;
    state.open++;
    socket.once('close', () => state.open--);
  });
  // Plain http behind the emulator's front, which takes the LIST method (Node's parser refuses
  // it) and hands it on as GET ?list=true.
  const front = tls ? undefined : new ListFront(server);
  let port: number;
  if (front) {
    port = await front.listen(0, '127.0.0.1');
  } else {
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    port = (server.address() as AddressInfo).port;
  }
  return {
    baseUrl: `${tls ? 'https' : 'http'}://127.0.0.1:${port}/v1`,
    port,
    get seen() {
      return state.seen;
    },
    get connections() {
      return state.connections;
    },
    get open() {
      return state.open;
    },
    get inFlight() {
      return state.inFlight;
    },
    get maxInFlight() {
      return state.maxInFlight;
    },
    close: async () => {
      await front?.close();
      await new Promise<void>((resolve) => {
        server.closeAllConnections();
        if (front) resolve();
        else server.close(() => resolve());
      });
    },
  };
}

export function json(res: http.ServerResponse, status: number, body: unknown, headers: http.OutgoingHttpHeaders = {}): void {
  const text = JSON.stringify(body);
  res.writeHead(status, { 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(text), ...headers });
  res.end(text);
}

/** The Vault-style envelope around `data`. */
export function envelope(data: unknown, extra: Record<string, unknown> = {}): Record<string, unknown> {
  return { request_id: 'r-1', lease_id: '', renewable: false, lease_duration: 0, data, wrap_info: null, warnings: null, auth: null, ...extra };
}

/** A port nothing listens on (bound then released). */
export async function closedPort(): Promise<number> {
  const s = http.createServer();
  await new Promise<void>((resolve) => s.listen(0, '127.0.0.1', resolve));
  const port = (s.address() as AddressInfo).port;
  await new Promise<void>((resolve) => s.close(() => resolve()));
  return port;
}
