import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { BAD_RESPONSE_CODE, CLOSED_CODE, Http1ResponseReader, MAX_BODY_BYTES, MAX_HEAD_BYTES, type Http1Response } from '../../src/client/http1-response.js';

const CHUNKED = [
  'HTTP/1.1 200 OK',
  'Content-Type: application/json',
  'Transfer-Encoding: chunked',
  'Keep-Alive: timeout=5',
  '',
  '7;ext=1',
  '{"data"',
  '13',
  ':{"é":"ü","n":1}}',
  '0',
  'X-Trailer: t',
  '',
  '',
].join('\r\n');

/** Feeds `parts` one by one; returns the response and the index of the part that completed it. */
function feed(parts: Buffer[]): { res: Http1Response | undefined; at: number } {
  const reader = new Http1ResponseReader();
  for (let i = 0; i < parts.length; i++) {
    const res = reader.push(parts[i]!);
    if (res) return { res, at: i };
  }
  return { res: undefined, at: -1 };
}

function codeOf(fn: () => unknown): { code: unknown; message: string } {
  try {
    fn();
  } catch (err) {
    return { code: (err as { code?: unknown }).code, message: (err as Error).message };
  }
  throw new Error('expected an error');
}

const one = (text: string): Http1Response | undefined => new Http1ResponseReader().push(Buffer.from(text, 'latin1'));

describe('reading an HTTP/1.1 response', () => {
  it('reads a Content-Length body, with lower-cased header names and repeated headers joined', () => {
    const res = one('HTTP/1.1 404 Not Found\r\nContent-Length: 2\r\nX-A: 1\r\nx-a: 2\r\n\r\n{}');
    expect(res).toEqual({ status: 404, headers: { 'content-length': '2', 'x-a': '1, 2' }, body: Buffer.from('{}'), keepAlive: true, extra: 0 });
  });

  it('reads a chunked body the same however the bytes are split (every one- and two-cut split)', () => {
    const bytes = Buffer.from(CHUNKED, 'utf8');
    const whole = feed([bytes]).res!;
    expect(whole.body.toString('utf8')).toBe('{"data":{"é":"ü","n":1}}');
    expect(whole).toMatchObject({ status: 200, keepAlive: true, extra: 0 });
    expect(whole.headers['keep-alive']).toBe('timeout=5');
    for (let a = 0; a <= bytes.length; a++) {
      for (let b = a; b <= bytes.length; b += 3) {
        const { res, at } = feed([bytes.subarray(0, a), bytes.subarray(a, b), bytes.subarray(b)]);
        expect(res?.body.equals(whole.body), `cut at ${a} and ${b}`).toBe(true);
        // Complete only once the final CRLF has arrived, not before.
        expect(at).toBe(b === bytes.length ? (a === bytes.length ? 0 : 1) : 2);
      }
    }
  });

  it('skips interim answers (100 Continue) and reads the one that follows', () => {
    expect(one('HTTP/1.1 100 Continue\r\n\r\nHTTP/1.1 200 OK\r\nContent-Length: 1\r\n\r\nx')?.status).toBe(200);
  });

  it('reads 204 and 304 answers as bodiless, whatever their headers say', () => {
    expect(one('HTTP/1.1 204 No Content\r\n\r\n')).toMatchObject({ status: 204, body: Buffer.alloc(0), extra: 0 });
    expect(one('HTTP/1.1 304 Not Modified\r\nContent-Length: 5\r\n\r\n')).toMatchObject({ status: 304, extra: 0 });
  });

  it('reads a body delimited by the connection end, and does not keep that connection', () => {
    const reader = new Http1ResponseReader();
    expect(reader.push(Buffer.from('HTTP/1.1 200 OK\r\n\r\nabc'))).toBeUndefined();
    expect(reader.push(Buffer.from('def'))).toBeUndefined();
    expect(reader.end()).toMatchObject({ status: 200, body: Buffer.from('abcdef'), keepAlive: false });
  });

  it('keeps the connection as HTTP/1.1 and 1.0 say (Connection: close, keep-alive)', () => {
    expect(one('HTTP/1.1 200 OK\r\nConnection: close\r\nContent-Length: 0\r\n\r\n')?.keepAlive).toBe(false);
    expect(one('HTTP/1.1 200 OK\r\nConnection: Keep-Alive, Close\r\nContent-Length: 0\r\n\r\n')?.keepAlive).toBe(false);
    expect(one('HTTP/1.0 200 OK\r\nContent-Length: 0\r\n\r\n')?.keepAlive).toBe(false);
    expect(one('HTTP/1.0 200 OK\r\nConnection: keep-alive\r\nContent-Length: 0\r\n\r\n')?.keepAlive).toBe(true);
  });

  it('keeps header names such as __proto__ and constructor as plain headers', () => {
    const res = one('HTTP/1.1 200 OK\r\n__proto__: a\r\nconstructor: b\r\nContent-Length: 0\r\n\r\n');
    expect(res?.headers['__proto__']).toBe('a');
    expect(res?.headers['constructor']).toBe('b');
  });

  it('counts bytes that follow the response', () => {
    expect(one('HTTP/1.1 200 OK\r\nContent-Length: 1\r\n\r\nxyz')).toMatchObject({ body: Buffer.from('x'), extra: 2 });
  });

  it.each([
    ['no status line', 'hello\r\n\r\n', /status line/],
    ['a header line without a colon', 'HTTP/1.1 200 OK\r\nbroken\r\n\r\n', /malformed header/],
    ['a folded header', 'HTTP/1.1 200 OK\r\nX-A: 1\r\n  more\r\nContent-Length: 0\r\n\r\n', /malformed header/],
    ['a space before the colon', 'HTTP/1.1 200 OK\r\nContent-Length : 0\r\n\r\n', /malformed header/],
    ['both lengths', 'HTTP/1.1 200 OK\r\nContent-Length: 3\r\nTransfer-Encoding: chunked\r\n\r\n', /both Content-Length and Transfer-Encoding/],
    ['a length that is not a number', 'HTTP/1.1 200 OK\r\nContent-Length: 3x\r\n\r\n', /invalid Content-Length/],
    ['two different lengths', 'HTTP/1.1 200 OK\r\nContent-Length: 3\r\nContent-Length: 4\r\n\r\n', /invalid Content-Length/],
    ['a length above the bound', `HTTP/1.1 200 OK\r\nContent-Length: ${MAX_BODY_BYTES + 1}\r\n\r\n`, /larger than/],
    ['a chunk size that is not hexadecimal', 'HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n', /not a hexadecimal/],
    ['a chunk without its CRLF', 'HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n1\r\nxyz', /does not end with CRLF/],
    ['lines that end with a bare LF', 'HTTP/1.1 200 OK\nContent-Length: 0\n\n', /do not end with CRLF/],
    ['a protocol switch', 'HTTP/1.1 101 Switching Protocols\r\n\r\n', /switched protocols/],
  ])('refuses %s', (_name, text, message) => {
    const err = codeOf(() => one(text));
    expect(err.code).toBe(BAD_RESPONSE_CODE);
    expect(err.message).toMatch(message);
  });

  it('refuses headers larger than the bound, without waiting for their end', () => {
    const reader = new Http1ResponseReader();
    reader.push(Buffer.from('HTTP/1.1 200 OK\r\n'));
    const err = codeOf(() => reader.push(Buffer.alloc(MAX_HEAD_BYTES, 'a')));
    expect(err).toEqual({ code: BAD_RESPONSE_CODE, message: 'the response headers are too large' });
  });

  it('says whether the connection ended before or in the middle of the answer', () => {
    expect(codeOf(() => new Http1ResponseReader().end())).toEqual({ code: CLOSED_CODE, message: 'the connection closed before an answer came' });
    const reader = new Http1ResponseReader();
    reader.push(Buffer.from('HTTP/1.1 200 OK\r\nContent-Length: 10\r\n\r\nabc'));
    expect(codeOf(() => reader.end())).toEqual({ code: CLOSED_CODE, message: 'the connection closed in the middle of the answer' });
  });

  it('reads any well-formed response, however framed and however its bytes are split (property)', () => {
    const tokenChar = fc.constantFrom(...'!#$%&*+-.^_`|~0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ'.split(''));
    const name = fc.string({ unit: tokenChar, minLength: 1, maxLength: 20 }).filter((n) => !/^(content-length|transfer-encoding|connection)$/i.test(n));
    const value = fc.string({ unit: fc.constantFrom(...' \tabcXYZ019=;,"/:'.split('')), maxLength: 40 }).map((v) => v.trim());
    const response = fc.record({
      status: fc.integer({ min: 200, max: 599 }).filter((n) => n !== 204 && n !== 304),
      headers: fc.array(fc.tuple(name, value), { maxLength: 8 }),
      body: fc.uint8Array({ maxLength: 2000 }),
      framing: fc.constantFrom('length', 'chunked', 'close'),
      chunkCuts: fc.array(fc.nat(), { maxLength: 6 }),
      readCuts: fc.array(fc.nat(), { maxLength: 6 }),
    });
    fc.assert(
      fc.property(response, ({ status, headers, body, framing, chunkCuts, readCuts }) => {
        const bytes = serialise(status, headers, Buffer.from(body), framing, chunkCuts);
        const reader = new Http1ResponseReader();
        let res: Http1Response | undefined;
        let from = 0;
        for (const cut of [...new Set(readCuts.map((c) => c % (bytes.length + 1)))].sort((a, b) => a - b)) {
          res ??= reader.push(bytes.subarray(from, cut));
          from = cut;
        }
        res ??= reader.push(bytes.subarray(from));
        if (framing === 'close') res ??= reader.end();
        expect(res?.status).toBe(status);
        expect(res?.body.equals(Buffer.from(body))).toBe(true);
        expect(res?.keepAlive).toBe(framing !== 'close');
        const expected = Object.create(null) as Record<string, string>;
        for (const [n, v] of headers) {
          const key = n.toLowerCase();
          expected[key] = expected[key] === undefined ? v : `${expected[key]}, ${v}`;
        }
        for (const [key, v] of Object.entries(expected)) expect(res?.headers[key]).toBe(v);
      }),
      { numRuns: 300 },
    );
  });
});

/** A response as a server would send it: Content-Length, chunks cut at `cuts`, or until close. */
function serialise(status: number, headers: Array<[string, string]>, body: Buffer, framing: string, cuts: number[]): Buffer {
  const lines = [`HTTP/1.1 ${status} Whatever It Says`, ...headers.map(([n, v]) => `${n}: ${v}`)];
  if (framing === 'length') return Buffer.concat([Buffer.from([...lines, `Content-Length: ${body.length}`, '', ''].join('\r\n'), 'latin1'), body]);
  if (framing === 'close') return Buffer.concat([Buffer.from([...lines, '', ''].join('\r\n'), 'latin1'), body]);
  const parts: Buffer[] = [Buffer.from([...lines, 'Transfer-Encoding: chunked', '', ''].join('\r\n'), 'latin1')];
  let from = 0;
  for (const cut of [...new Set(cuts.map((c) => c % (body.length + 1)))].sort((a, b) => a - b).concat(body.length)) {
    if (cut === from) continue;
    parts.push(Buffer.from(`${(cut - from).toString(16)}\r\n`), body.subarray(from, cut), Buffer.from('\r\n'));
    from = cut;
  }
  parts.push(Buffer.from('0\r\n\r\n'));
  return Buffer.concat(parts);
}
