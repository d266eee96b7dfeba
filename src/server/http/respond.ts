import type { ServerResponse } from 'node:http';
import { newUuid } from '../util/random.js';
import type { Reply } from './reply.js';

/** Writes replies in the service's shapes: the envelope, 204s and `{"errors": [...]}`. */

/** `dataAtTop`: data's members also at the top of the envelope (http/legacy-top-level.ts). */
export function sendReply(res: ServerResponse, reply: Reply, dataAtTop = false): void {
  switch (reply.kind) {
    case 'raw':
      return sendJson(res, reply.status, reply.body);
    case 'empty':
      if (!reply.warnings?.length) return sendNoContent(res);
      return sendJson(res, 200, envelope(null, null, reply.warnings));
    case 'auth':
      return sendJson(res, 200, envelope(reply.data ?? null, reply.auth, reply.warnings));
    case 'data': {
      const body = envelope(reply.data, null, reply.warnings);
      return sendJson(res, 200, dataAtTop ? { ...reply.data, ...body } : body);
    }
  }
}

export function sendErrors(res: ServerResponse, status: number, errors: string[], headers?: Readonly<Record<string, string>>): void {
  sendJson(res, status, { errors }, headers);
}

/** A status and nothing else, as a Go handler that only calls WriteHeader answers. */
export function sendStatusOnly(res: ServerResponse, status: number): void {
  res.writeHead(status, { 'Content-Length': 0 });
  res.end();
}

/**
 * What Go's net/http server answers a request it cannot read (server.go, conn.serve after
 * readRequest fails): `400 Bad Request` as plain text, and the connection closed.
 */
export function sendBadRequest(res: ServerResponse): void {
  const body = '400 Bad Request';
  res.writeHead(400, { 'Content-Type': 'text/plain; charset=utf-8', 'Content-Length': body.length, Connection: 'close' });
  res.end(body);
}

/**
 * 301 with a Location, as Go's ServeMux answers a path it cleans, through net/http Redirect: to
 * a GET or a HEAD it adds `Content-Type: text/html; charset=utf-8`, and to a GET a short HTML
 * body naming the location (the status text linked to it, then two line ends).
 */
export function sendRedirect(res: ServerResponse, method: string, location: string): void {
  const page = method === 'GET' || method === 'HEAD';
  const body = method === 'GET' ? `<a href="${htmlEscape(location)}">Moved Permanently</a>.\n\n` : '';
  res.writeHead(301, {
    Location: location,
    ...(page ? { 'Content-Type': 'text/html; charset=utf-8' } : {}),
    'Content-Length': Buffer.byteLength(body),
    'Cache-Control': 'no-store',
  });
  res.end(body);
}

function envelope(data: unknown, auth: unknown, warnings: string[] | undefined) {
  return {
    request_id: newUuid(),
    lease_id: '',
    renewable: false,
    lease_duration: 0,
    data,
    wrap_info: null,
    warnings: warnings?.length ? warnings : null,
    auth,
  };
}

function sendJson(res: ServerResponse, status: number, body: unknown, headers?: Readonly<Record<string, string>>): void {
  const text = goJsonText(body);
  res.writeHead(status, {
    ...headers,
    'Content-Type': 'application/json',
    'Content-Length': Buffer.byteLength(text),
    'Cache-Control': 'no-store',
  });
  res.end(text);
}

function sendNoContent(res: ServerResponse): void {
  res.writeHead(204, { 'Cache-Control': 'no-store' });
  res.end();
}

/**
 * JSON as Go's encoding/json writes it where the two differ in what a reader sees: a byte of a
 * name that is not UTF-8 (held as a lone surrogate, see request-path.ts decodePathBytes) is
 * written `\ufffd` (encode.go appendString), where JSON.stringify would write `\udcff`. An
 * escape preceded by an odd number of backslashes is text, not an escape, and stays.
 */
function goJsonText(value: unknown): string {
  return JSON.stringify(value).replace(/(?<!\\)((?:\\\\)*)\\ud[89a-f][0-9a-f]{2}/g, '$1\\ufffd');
}

/** Go's net/http htmlEscape (an html.Replacer of the five characters). */
function htmlEscape(text: string): string {
  const entities: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&#34;', "'": '&#39;' };
  return text.replace(/[&<>"']/g, (c) => entities[c]!);
}
