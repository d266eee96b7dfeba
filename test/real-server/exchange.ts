/**
 * Sends one corpus case to one server over plain node:http, so the request line is exactly the
 * case's path (fetch and URL would resolve `..` segments and re-encode the path before sending).
 */
import { request } from 'node:http';
import { connect } from 'node:net';
import type { Case } from './corpus.js';

export interface Target {
  /** `http://127.0.0.1:PORT`, without /v1. */
  addr: string;
  rootToken: string;
}

export interface Answer {
  status: number;
  /** Parsed JSON; the text when it is not JSON; undefined when there is no body. */
  body: unknown;
}

/** A token no server issued, for the "wrong token" cases. */
export const WRONG_TOKEN = 'hvs.NotAToken0000000000000';

/** Fills `<<name>>` from what this side captured earlier and the directory's settings. */
export function fill(text: string, values: ReadonlyMap<string, string>): string {
  return text.replace(/<<([a-z0-9_.-]+)>>/gi, (_, name: string) => {
    const value = values.get(name);
    // run-corpus.ts reports the capture that failed; the cases after it still run.
    return value ?? `not-captured-${name}`;
  });
}

export async function send(target: Target, c: Case, values: ReadonlyMap<string, string>): Promise<Answer> {
  // Raw pairs, flattened as node:http takes them (message.rawHeaders' form): a name may repeat.
  const url = new URL(target.addr);
  if (c.raw !== undefined) {
    const text = c.raw.replace(/<<(host|root|wrong)>>/g, (_, name: string) => (name === 'host' ? url.host : name === 'root' ? target.rootToken : WRONG_TOKEN));
    return answerOf(await sendRaw(url, text));
  }
  // Given as an array, node:http adds no Host header of its own.
  const headers: string[] = ['Host', url.host];
  const token = c.token ?? 'root';
  if (token === 'root') headers.push('X-Vault-Token', target.rootToken);
  else if (token === 'wrong') headers.push('X-Vault-Token', WRONG_TOKEN);
  else if (token !== 'none') headers.push('X-Vault-Token', fill(`<<${token.captured}>>`, values));
  if (c.namespace !== undefined) headers.push('X-Vault-Namespace', c.namespace);
  const payload = c.rawBody ?? (c.body === undefined ? undefined : fill(JSON.stringify(c.body), values));
  const ownContentType = (c.headers ?? []).some(([name]) => name.toLowerCase() === 'content-type');
  if (payload !== undefined && !ownContentType) headers.push('Content-Type', c.contentType ?? 'application/json');
  for (const [name, value] of c.headers ?? []) {
    headers.push(name, value === '<<root>>' ? target.rootToken : value === '<<wrong>>' ? WRONG_TOKEN : fill(value, values));
  }
  const path = `${c.absoluteForm ? `http://${url.host}` : ''}/v1/${fill(c.path, values)}`;
  if (payload !== undefined) headers.push('Content-Length', String(Buffer.byteLength(payload)));
  const { status, text } = await new Promise<{ status: number; text: string }>((resolve, reject) => {
    const req = request({ host: url.hostname, port: url.port, method: c.method, path, headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, text: Buffer.concat(chunks).toString('utf8') }));
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end(payload);
  });
  return answerOf({ status, text });
}

function answerOf({ status, text }: { status: number; text: string }): Answer {
  if (text === '') return { status, body: undefined };
  try {
    return { status, body: JSON.parse(text) as unknown };
  } catch {
    return { status, body: text };
  }
}

/** Writes the request on a socket, reads the answer to the connection's end. */
function sendRaw(url: URL, request: string): Promise<{ status: number; text: string }> {
  return new Promise((resolve, reject) => {
    const socket = connect(Number(url.port), url.hostname);
    const chunks: Buffer[] = [];
    socket.on('data', (chunk: Buffer) => chunks.push(chunk));
    socket.on('error', reject);
    socket.on('end', () => {
      const response = Buffer.concat(chunks).toString('latin1');
      const headEnd = response.indexOf('\r\n\r\n');
      const head = headEnd === -1 ? response : response.slice(0, headEnd);
      const status = Number(/^HTTP\/1\.[01] (\d{3})/.exec(head)?.[1] ?? 0);
      const rest = headEnd === -1 ? '' : response.slice(headEnd + 4);
      const body = /^transfer-encoding:\s*chunked/im.test(head) ? dechunk(rest) : rest;
      resolve({ status, text: Buffer.from(body, 'latin1').toString('utf8') });
      socket.destroy();
    });
    socket.write(Buffer.from(request, 'latin1'));
  });
}

function dechunk(text: string): string {
  let out = '';
  let at = 0;
  for (;;) {
    const lineEnd = text.indexOf('\r\n', at);
    if (lineEnd === -1) return out;
    const size = Number.parseInt(text.slice(at, lineEnd), 16);
    if (!(size > 0)) return out;
    out += text.slice(lineEnd + 2, lineEnd + 2 + size);
    at = lineEnd + 2 + size + 2;
  }
}

/** The value at a dotted path of an answer (`auth.client_token`). */
export function valueAt(value: unknown, path: string): unknown {
  let at: unknown = value;
  for (const key of path.split('.')) {
    if (at === null || typeof at !== 'object' || !Object.prototype.hasOwnProperty.call(at, key)) return undefined;
    at = (at as Record<string, unknown>)[key];
  }
  return at;
}
