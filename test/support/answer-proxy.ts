/**
 * A loopback HTTP proxy in front of the embedded server that rewrites chosen answers: a server
 * that answers in shapes the real one never would (a list where a string belongs, a name that
 * cannot be addressed), with every other answer the emulator's own. Records every request.
 */
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/** `GET auth/ldap/config`, or `LIST auth/ldap/users` for a list (either form). */
export type AnswerKey = string;

/** Changes a parsed answer body in place (or returns a replacement). */
export type Rewrite = (body: Record<string, unknown>) => unknown;

/** Answers a request in place of the server, from the request's body: a server that echoes what it was sent (or answers once something has happened). */
export type Responder = (requestBody: string) => { status: number; body: unknown } | Promise<{ status: number; body: unknown }>;

export interface AnswerProxy {
  /** Base URL to give lockstep instead of the server's (`http://127.0.0.1:<port>/v1`). */
  baseUrl: string;
  /** Every request seen: `METHOD path` (path after /v1/, decoded, `LIST` for lists). */
  requests: string[];
  /** The body of every request that had one, by the same key. */
  bodies: Array<{ key: string; body: string }>;
  rewrite(key: AnswerKey, change: Rewrite): void;
  respond(key: AnswerKey, answer: Responder): void;
  clear(): void;
  close(): Promise<void>;
}

export async function startAnswerProxy(upstreamBaseUrl: string): Promise<AnswerProxy> {
  const rewrites = new Map<AnswerKey, Rewrite>();
  const responders = new Map<AnswerKey, Responder>();
  const requests: string[] = [];
  const bodies: Array<{ key: string; body: string }> = [];
  const server: Server = createServer((req, res) => {
    void (async () => {
      const body = await readBody(req);
      const url = new URL(req.url ?? '/', 'http://proxy');
      const path = decodeURIComponent(url.pathname.replace(/^\/v1\//, ''));
      const isList = req.method === 'LIST' || url.searchParams.get('list') === 'true';
      const key = `${isList ? 'LIST' : req.method} ${path}`;
      requests.push(key);
      if (body.length > 0) bodies.push({ key, body: body.toString('utf8') });
      const responder = responders.get(key);
      if (responder) {
        const answer = await responder(body.toString('utf8'));
        const text = JSON.stringify(answer.body);
        res.writeHead(answer.status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text) });
        res.end(text);
        return;
      }
      const headers: Record<string, string> = {};
      for (const [name, value] of Object.entries(req.headers)) {
        if (typeof value === 'string' && !['host', 'content-length', 'connection'].includes(name)) headers[name] = value;
      }
      const upstream = await fetch(`${upstreamBaseUrl}${url.pathname.replace(/^\/v1/, '')}${url.search}`, {
        method: req.method === 'LIST' ? 'GET' : req.method,
        headers,
        body: body.length > 0 ? new Uint8Array(body) : undefined,
      });
      let text = await upstream.text();
      const change = rewrites.get(key);
      if (change && text !== '') {
        const parsed = JSON.parse(text) as Record<string, unknown>;
        const replaced = change(parsed);
        text = JSON.stringify(replaced === undefined ? parsed : replaced);
        // JSON.stringify cannot write what JSON.parse reads as Infinity: put the literal back.
        text = text.replace(/"__1e400__"/g, '1e400');
      }
      const status = change && upstream.status === 404 ? 200 : upstream.status;
      res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text) });
      res.end(text);
    })().catch((err: unknown) => {
      res.writeHead(502, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ errors: [String(err)] }));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    baseUrl: `http://127.0.0.1:${port}/v1`,
    requests,
    bodies,
    rewrite: (key, change) => void rewrites.set(key, change),
    respond: (key, answer) => void responders.set(key, answer),
    clear: () => {
      rewrites.clear();
      responders.clear();
      requests.length = 0;
      bodies.length = 0;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** A value that the proxy writes as the JSON number literal `1e400` (Infinity once parsed). */
export const HUGE_NUMBER = '__1e400__';

function readBody(req: IncomingMessage): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => resolve(Buffer.concat(chunks)));
    req.on('error', reject);
  });
}

/** Notes in `into` each token the login answers at `keys` issue (`auth.client_token`); the answers pass on as they are. */
export function recordIssuedTokens(proxy: AnswerProxy, keys: readonly AnswerKey[], into: string[]): void {
  const note: Rewrite = (body) => {
    const token = (body['auth'] as { client_token?: unknown } | undefined)?.client_token;
    if (typeof token === 'string') into.push(token);
    return body;
  };
  for (const key of keys) proxy.rewrite(key, note);
}
