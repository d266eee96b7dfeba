/**
 * Rewrites `LIST /p HTTP/1.1` request lines to `GET /p?list=true HTTP/1.1` in a raw HTTP/1.1
 * byte stream, because Node's HTTP parser refuses the LIST method. Only request heads are
 * touched: bodies are skipped by following Content-Length and chunked framing, so a body that
 * happens to contain "LIST " is passed on untouched, and keep-alive/pipelined requests work.
 * Bytes that are not valid HTTP are passed through for the HTTP parser to reject.
 */

/**
 * The most header bytes a request may send: Go's net/http default (server.go
 * DefaultMaxHeaderBytes, 1 MB) plus the 4096 bytes of bufio it reads them with
 * (initialReadLimitSize). The HTTP server is given the same limit (cluster.ts maxHeaderSize).
 */
export const MAX_HEADER_BYTES = (1 << 20) + 4096;
const MAX_HEAD_BYTES = MAX_HEADER_BYTES;
const MAX_CHUNK_LINE_BYTES = 4 * 1024;
const LIST_PREFIX = Buffer.from('LIST ');

type Mode = 'head' | 'body' | 'chunk-size' | 'chunk-data' | 'chunk-trailer' | 'passthrough';

export class HeadRewriter {
  private mode: Mode = 'head';
  /** Partial head, or partial chunk-size/trailer line. */
  private pending: Buffer = Buffer.alloc(0);
  /** Bytes left in the current body or chunk (chunk data includes its trailing CRLF). */
  private remaining = 0;

  /** Feeds received bytes; returns the bytes to hand to the HTTP parser, in order. */
  feed(chunk: Buffer): Buffer[] {
    const out: Buffer[] = [];
    let data = chunk;
    while (data.length > 0) {
      switch (this.mode) {
        case 'passthrough':
          out.push(data);
          return out;
        case 'head':
          data = this.takeHead(data, out);
          break;
        case 'body':
        case 'chunk-data':
          data = this.takeCounted(data, out);
          break;
        case 'chunk-size':
        case 'chunk-trailer':
          data = this.takeChunkLine(data, out);
          break;
      }
    }
    return out;
  }

  private takeHead(data: Buffer, out: Buffer[]): Buffer {
    const searchFrom = Math.max(0, this.pending.length - 3);
    const buffer = this.pending.length === 0 ? data : Buffer.concat([this.pending, data]);
    if (!mayStartRequest(buffer)) {
      // Not a request head (a TLS ClientHello sent to this plain-HTTP port, say): handed on at
      // once, for the HTTP parser to answer 400 and close, rather than held while waiting for
      // a line end that never comes (the client then waited for its own timeout).
      this.pending = Buffer.alloc(0);
      this.mode = 'passthrough';
      out.push(buffer);
      return Buffer.alloc(0);
    }
    const end = headEnd(buffer, searchFrom);
    if (end === -1) {
      if (buffer.length > MAX_HEAD_BYTES) {
        this.mode = 'passthrough';
        out.push(buffer);
      } else {
        this.pending = Buffer.from(buffer); // copy: `data` may be a view of a reused buffer
      }
      return Buffer.alloc(0);
    }
    this.pending = Buffer.alloc(0);
    const head = unfold(buffer.subarray(0, end));
    out.push(rewriteListLine(head));
    this.mode = bodyModeOf(head.toString('latin1'), (n) => (this.remaining = n));
    return buffer.subarray(end);
  }

  private takeCounted(data: Buffer, out: Buffer[]): Buffer {
    const n = Math.min(this.remaining, data.length);
    out.push(data.subarray(0, n));
    this.remaining -= n;
    if (this.remaining === 0) this.mode = this.mode === 'body' ? 'head' : 'chunk-size';
    return data.subarray(n);
  }

  private takeChunkLine(data: Buffer, out: Buffer[]): Buffer {
    const lf = data.indexOf(0x0a);
    if (lf === -1) {
      out.push(data);
      this.pending = Buffer.concat([this.pending, data]);
      if (this.pending.length > MAX_CHUNK_LINE_BYTES) this.mode = 'passthrough';
      return Buffer.alloc(0);
    }
    out.push(data.subarray(0, lf + 1));
    const line = Buffer.concat([this.pending, data.subarray(0, lf)]).toString('latin1').replace(/\r$/, '');
    this.pending = Buffer.alloc(0);
    if (this.mode === 'chunk-size') {
      const size = Number.parseInt(line.split(';')[0]!.trim(), 16);
      if (!Number.isFinite(size) || size < 0) this.mode = 'passthrough';
      else if (size === 0) this.mode = 'chunk-trailer';
      else {
        this.remaining = size + 2;
        this.mode = 'chunk-data';
      }
    } else if (line === '') {
      this.mode = 'head'; // the empty line that ends the trailers ends the message
    }
    return data.subarray(lf + 1);
  }
}

/**
 * Whether the bytes can begin a request: blank lines, then a method's token characters
 * (RFC 9110 `tchar`). A first byte of anything else (0x16, TLS's handshake record) cannot.
 */
function mayStartRequest(buffer: Buffer): boolean {
  for (const byte of buffer) {
    if (byte === 0x0d || byte === 0x0a) continue;
    return TCHAR[byte] === 1;
  }
  return true;
}

const TCHAR = new Uint8Array(256);
for (const c of "!#$%&'*+-.^_`|~0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz") TCHAR[c.charCodeAt(0)] = 1;

/** Index just past the blank line ending a head (CRLFCRLF, or bare LFs); -1 if not there yet. */
function headEnd(buffer: Buffer, from: number): number {
  // Blank lines before a request line are allowed and ignored by the parser, however many
  // reads they came in: skipped on every call, not only the first (blank lines alone read
  // first made the next request's head look like an empty one).
  let blank = 0;
  while (blank < buffer.length && (buffer[blank] === 0x0d || buffer[blank] === 0x0a)) blank++;
  const start = Math.max(blank, from);
  for (let i = buffer.indexOf(0x0a, start); i !== -1; i = buffer.indexOf(0x0a, i + 1)) {
    if (buffer[i + 1] === 0x0a) return i + 2;
    if (buffer[i + 1] === 0x0d && buffer[i + 2] === 0x0a) return i + 3;
  }
  return -1;
}

function rewriteListLine(head: Buffer): Buffer {
  let start = 0;
  while (head[start] === 0x0d || head[start] === 0x0a) start++;
  // Buffer#compare throws past the end: a head shorter than "LIST " is not a LIST line.
  if (head.length - start < LIST_PREFIX.length) return head;
  if (head.compare(LIST_PREFIX, 0, LIST_PREFIX.length, start, start + LIST_PREFIX.length) !== 0) return head;
  const lineEnd = head.indexOf(0x0a, start);
  const line = head.toString('latin1', start, lineEnd);
  const [, target, ...rest] = line.split(' ');
  if (!target) return head;
  const rewritten = ['GET', `${target}${target.includes('?') ? '&' : '?'}list=true`, ...rest].join(' ');
  return Buffer.concat([head.subarray(0, start), Buffer.from(rewritten, 'latin1'), head.subarray(lineEnd)]);
}

/**
 * Joins obs-folded header lines (a line starting with a space or a tab continues the one above,
 * RFC 9112 5.2) as Go's textproto readContinuedLineSlice does: the line's trailing and the
 * continuation's leading white space become one space. Node's parser refuses them (400), Go
 * reads the joined value. A first header line starting with white space is left for the parser
 * to refuse, as Go's ReadMIMEHeader refuses it ("malformed MIME header initial line").
 */
function unfold(head: Buffer): Buffer {
  let start = 0;
  while (head[start] === 0x0d || head[start] === 0x0a) start++;
  const firstEnd = head.indexOf(0x0a, start);
  if (firstEnd === -1) return head;
  // After the request line and the first header line: only a header line can be continued.
  const secondEnd = head.indexOf(0x0a, firstEnd + 1);
  if (secondEnd === -1) return head;
  const rest = head.toString('latin1', secondEnd);
  if (!/\n[ \t]/.test(rest)) return head;
  const joined = rest.replace(/[ \t]*\r?\n[ \t]+(?=[^\r\n])/g, ' ');
  return Buffer.concat([head.subarray(0, secondEnd), Buffer.from(joined, 'latin1')]);
}

/** The framing of the body following a head; sets the byte count for Content-Length bodies. */
function bodyModeOf(head: string, setLength: (n: number) => void): Mode {
  const lines = head.split(/\r?\n/);
  const requestLine = lines.find((l) => l !== '') ?? '';
  if (requestLine.startsWith('CONNECT ')) return 'passthrough';
  let contentLength: string | undefined;
  let chunked = false;
  let upgrade = false;
  for (const line of lines) {
    const colon = line.indexOf(':');
    if (colon <= 0) continue;
    const name = line.slice(0, colon).trim().toLowerCase();
    const value = line.slice(colon + 1).trim();
    if (name === 'content-length') contentLength = value;
    else if (name === 'transfer-encoding') chunked = /(?:^|,)\s*chunked\s*$/i.test(value);
    else if (name === 'upgrade') upgrade = true;
  }
  if (upgrade) return 'passthrough';
  if (chunked) return 'chunk-size';
  if (contentLength === undefined) return 'head';
  if (!/^\d+$/.test(contentLength)) return 'passthrough';
  const length = Number(contentLength);
  if (length === 0) return 'head';
  setLength(length);
  return 'body';
}
