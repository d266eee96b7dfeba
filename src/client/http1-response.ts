/**
 * An incremental reader of one HTTP/1.1 response, fed the bytes of a connection as they arrive.
 * It is what lockstep needs from a server's answer and no more: the status, the headers, and the
 * body, delimited by Content-Length, chunked transfer coding, or the connection's end. It is
 * strict where a lenient reader would guess (conflicting lengths, malformed chunk sizes, folded
 * headers), because a guess about where an answer ends is a guess about the next one.
 */

import { codedError } from './errors.js';

/** Code of the error a response fails with when it is not valid HTTP/1.1. Not retried. */
export const BAD_RESPONSE_CODE = 'LOCKSTEP_BAD_RESPONSE';
/** Code of the error when the connection ends before the response does: retried (idempotent calls). */
export const CLOSED_CODE = 'ECONNRESET';

/** Bounds on what a server may make lockstep hold: a hostile or broken one gets an error. */
export const MAX_HEAD_BYTES = 64 * 1024;
export const MAX_BODY_BYTES = 256 * 1024 * 1024;

export interface Http1Response {
  status: number;
  /** Lower-cased names; repeated headers joined with ", " (as Node's IncomingMessage does). */
  headers: Record<string, string>;
  body: Buffer;
  /** Whether the connection may carry another request once this response is read. */
  keepAlive: boolean;
  /** Bytes received after the end of the response (none from a server that follows HTTP). */
  extra: number;
}

type State =
  | 'head' // status line and headers, up to the empty line
  | 'length' // a body of Content-Length bytes
  | 'chunk-size' // the size line of the next chunk
  | 'chunk-data' // a chunk's bytes
  | 'chunk-end' // the CRLF after a chunk's bytes
  | 'trailers' // trailer lines after the last chunk, up to the empty line
  | 'until-close' // a body delimited by the connection's end
  | 'done';

const STATUS_LINE = /^HTTP\/1\.([01]) ([1-9]\d\d)(?: [^\r\n]*)?$/;
/** A header's name and its colon, matched where `lastIndex` points (sticky). */
const HEADER_NAME = /[!#$%&'*+.^_`|~0-9A-Za-z-]+:/y;
const CHUNK_SIZE = /^([0-9A-Fa-f]{1,15})[ \t]*(?:;.*)?$/;
const CRLF = Buffer.from('\r\n');
const HEAD_END = Buffer.from('\r\n\r\n');
const BARE_LF_END = Buffer.from('\n\n');

export function badResponse(message: string): Error {
  return codedError(message, BAD_RESPONSE_CODE);
}

export class Http1ResponseReader {
  #state: State = 'head';
  /** Bytes of an unfinished head or line, kept until the rest arrives. */
  #pending: Buffer | undefined;
  #status = 0;
  #headers: Record<string, string> = Object.create(null) as Record<string, string>;
  #keepAlive = true;
  #remaining = 0;
  #parts: Buffer[] = [];
  #bodyBytes = 0;
  #trailerBytes = 0;
  #received = false;

  /**
   * Reads the next bytes of the connection. Returns the response once it is complete, else
   * undefined. Throws a BAD_RESPONSE_CODE error when the bytes are not a valid response.
   */
  push(chunk: Buffer): Http1Response | undefined {
    if (chunk.length > 0) this.#received = true;
    let buf = chunk;
    if (this.#pending) {
      buf = Buffer.concat([this.#pending, chunk]);
      this.#pending = undefined;
    }
    let at = 0;
    while (at < buf.length || this.#state === 'done') {
      switch (this.#state) {
        case 'head': {
          const end = buf.indexOf(HEAD_END, at);
          if (end < 0) {
            // A blank line of bare LFs: lines that do not end with CRLF, which HTTP/1.1 requires.
            if (buf.indexOf(BARE_LF_END, at) >= 0) throw badResponse('the response header lines do not end with CRLF');
            return this.#keep(buf, at, MAX_HEAD_BYTES, 'the response headers are too large');
          }
          if (end - at > MAX_HEAD_BYTES) throw badResponse('the response headers are too large');
          this.#readHead(buf, at, end);
          at = end + 4;
          break;
        }
        case 'length':
          at = this.#bodyBytesFrom(buf, at, 'done');
          break;
        case 'chunk-size': {
          const line = this.#line(buf, at);
          if (line === undefined) return undefined;
          at = line.next;
          const m = CHUNK_SIZE.exec(line.text);
          if (!m) throw badResponse('a chunk size of the response is not a hexadecimal number');
          const size = parseInt(m[1]!, 16);
          if (this.#bodyBytes + size > MAX_BODY_BYTES) throw badResponse(`the response body is larger than ${MAX_BODY_BYTES} bytes`);
          this.#remaining = size;
          this.#state = size === 0 ? 'trailers' : 'chunk-data';
          break;
        }
        case 'chunk-data':
          at = this.#bodyBytesFrom(buf, at, 'chunk-end');
          break;
        case 'chunk-end': {
          if (buf.length - at < 2) return this.#keep(buf, at, 2, '');
          if (buf[at] !== 0x0d || buf[at + 1] !== 0x0a) throw badResponse('a chunk of the response does not end with CRLF');
          at += 2;
          this.#state = 'chunk-size';
          break;
        }
        case 'trailers': {
          const line = this.#line(buf, at);
          if (line === undefined) return undefined;
          at = line.next;
          this.#trailerBytes += line.text.length + 2;
          if (this.#trailerBytes > MAX_HEAD_BYTES) throw badResponse('the response trailers are too large');
          if (line.text === '') this.#state = 'done';
          break;
        }
        case 'until-close': {
          this.#body(at === 0 ? buf : buf.subarray(at));
          return undefined;
        }
        case 'done':
          return this.#finish(buf.length - at);
        default:
          return assertNever(this.#state);
      }
    }
    return undefined;
  }

  /**
   * The connection ended. Returns the response when its end was the end of the body, else throws
   * (CLOSED_CODE: the answer is incomplete, and an idempotent call may be sent again).
   */
  end(): Http1Response {
    if (this.#state === 'until-close' || this.#state === 'done') return this.#finish(0);
    const message = this.#received ? 'the connection closed in the middle of the answer' : 'the connection closed before an answer came';
    throw codedError(message, CLOSED_CODE);
  }

  #readHead(buf: Buffer, start: number, end: number): void {
    const text = latin1(buf, start, end);
    let lineEnd = text.indexOf('\r\n');
    if (lineEnd < 0) lineEnd = text.length;
    const status = STATUS_LINE.exec(lineEnd === text.length ? text : text.slice(0, lineEnd));
    if (!status) throw badResponse(`the response does not start with an HTTP/1.x status line`);
    // No prototype: a header named `__proto__` or `constructor` is just a header.
    const headers = Object.create(null) as Record<string, string>;
    for (let at = lineEnd + 2; at < text.length; ) {
      let next = text.indexOf('\r\n', at);
      if (next < 0) next = text.length;
      // The name and its colon in one match: a line that starts with white space would fold into
      // the previous header (obsolete, and a way to smuggle one), and is refused like any name
      // with a character a token may not have.
      HEADER_NAME.lastIndex = at;
      if (!HEADER_NAME.test(text) || HEADER_NAME.lastIndex > next) throw badResponse('the response has a malformed header line');
      const colon = HEADER_NAME.lastIndex - 1;
      const key = text.slice(at, colon).toLowerCase();
      const value = text.slice(colon + 1, next).trim();
      const seen = headers[key];
      headers[key] = seen === undefined ? value : `${seen}, ${value}`;
      at = next + 2;
    }
    const code = Number(status[2]);
    if (code < 200) {
      // An interim answer (100 Continue, 103 Early Hints): the real one follows. 101 would switch
      // the connection to another protocol, which lockstep never asks for.
      if (code === 101) throw badResponse('the server switched protocols, which lockstep did not ask for');
      return;
    }
    this.#status = code;
    this.#headers = headers;
    this.#keepAlive = keepsAlive(status[1] === '1', headers['connection']);
    const length = headers['content-length'];
    const coding = headers['transfer-encoding'];
    if (code === 204 || code === 304) {
      this.#state = 'done';
    } else if (coding !== undefined) {
      if (length !== undefined) throw badResponse('the response has both Content-Length and Transfer-Encoding');
      if (/(?:^|,)\s*chunked\s*$/i.test(coding)) {
        this.#state = 'chunk-size';
      } else {
        this.#keepAlive = false;
        this.#state = 'until-close';
      }
    } else if (length !== undefined) {
      this.#remaining = contentLength(length);
      this.#state = this.#remaining === 0 ? 'done' : 'length';
    } else {
      this.#keepAlive = false;
      this.#state = 'until-close';
    }
  }

  /** Takes up to #remaining body bytes from `at`; moves to `then` once none remain. Returns where it stopped. */
  #bodyBytesFrom(buf: Buffer, at: number, then: State): number {
    const n = Math.min(this.#remaining, buf.length - at);
    this.#body(buf.subarray(at, at + n));
    this.#remaining -= n;
    if (this.#remaining === 0) this.#state = then;
    return at + n;
  }

  #body(part: Buffer): void {
    if (part.length === 0) return;
    this.#bodyBytes += part.length;
    if (this.#bodyBytes > MAX_BODY_BYTES) throw badResponse(`the response body is larger than ${MAX_BODY_BYTES} bytes`);
    this.#parts.push(part);
  }

  /** The CRLF-ended line at `at`, or undefined (its start kept) when it has not all arrived. */
  #line(buf: Buffer, at: number): { text: string; next: number } | undefined {
    const end = buf.indexOf(CRLF, at);
    if (end < 0) {
      this.#keep(buf, at, 4096, 'a chunk-size or trailer line of the response is too long');
      return undefined;
    }
    return { text: latin1(buf, at, end), next: end + 2 };
  }

  /** Keeps the unread bytes for the next push; throws `tooLong` when they exceed `max`. */
  #keep(buf: Buffer, at: number, max: number, tooLong: string): undefined {
    if (buf.length - at > max && tooLong) throw badResponse(tooLong);
    if (at < buf.length) this.#pending = buf.subarray(at);
    return undefined;
  }

  #finish(extra: number): Http1Response {
    this.#state = 'done';
    const parts = this.#parts;
    const body = parts.length === 1 ? parts[0]! : Buffer.concat(parts, this.#bodyBytes);
    return { status: this.#status, headers: this.#headers, body, keepAlive: this.#keepAlive, extra };
  }
}

/** HTTP/1.1 keeps a connection unless told `close`; HTTP/1.0 only when told `keep-alive`. */
function keepsAlive(http11: boolean, connection: string | undefined): boolean {
  if (connection === undefined) return http11;
  const options = connection.toLowerCase();
  if (options === 'keep-alive') return true;
  return http11 ? !/(?:^|,)\s*close\s*(?:,|$)/.test(options) : /(?:^|,)\s*keep-alive\s*(?:,|$)/.test(options);
}

/** Content-Length: digits; a repeated header must repeat the same length. */
function contentLength(text: string): number {
  if (DIGITS.test(text)) return boundedLength(Number(text));
  const values = text.split(',').map((v) => v.trim());
  if (!values.every((v) => DIGITS.test(v)) || values.some((v) => v !== values[0])) {
    throw badResponse('the response has an invalid Content-Length');
  }
  return boundedLength(Number(values[0]));
}

function boundedLength(n: number): number {
  if (n > MAX_BODY_BYTES) throw badResponse(`the response body is larger than ${MAX_BODY_BYTES} bytes`);
  return n;
}

const DIGITS = /^\d{1,15}$/;

/**
 * Bytes as Latin-1 text. Buffer's latin1Slice (undocumented, but what toString('latin1') calls,
 * and what undici's parser uses) skips toString's argument handling: a sixth of a head's cost.
 */
function latin1(buf: Buffer, start: number, end: number): string {
  return (buf as unknown as { latin1Slice(start: number, end: number): string }).latin1Slice(start, end);
}

function assertNever(x: never): never {
  throw new Error(`unexpected state ${String(x)}`);
}
