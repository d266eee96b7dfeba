/**
 * Sends one corpus case to one server over plain node:http, so the request line is exactly the
 * case's path (fetch and URL would resolve `..` segments and re-encode the path before sending).
 */
import { request } from 'node:http';
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
  if (text === '') return { status, body: undefined };
  try {
    return { status, body: JSON.parse(text) as unknown };
  } catch {
    return { status, body: text };
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
