import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { HeadRewriter } from '../../src/server/http/head-rewriter.js';

function run(input: string, splits: number[] = []): string {
  const rewriter = new HeadRewriter();
  const bytes = Buffer.from(input, 'latin1');
  const cuts = [...new Set(splits.map((s) => s % (bytes.length + 1)))].sort((a, b) => a - b);
  const out: Buffer[] = [];
  let from = 0;
  for (const cut of [...cuts, bytes.length]) {
    out.push(...rewriter.feed(bytes.subarray(from, cut)));
    from = cut;
  }
  return Buffer.concat(out).toString('latin1');
}

describe('HeadRewriter', () => {
  it('rewrites a LIST request line, adding list=true to the query', () => {
    expect(run('LIST /v1/a/b HTTP/1.1\r\nHost: x\r\n\r\n')).toBe('GET /v1/a/b?list=true HTTP/1.1\r\nHost: x\r\n\r\n');
    expect(run('LIST /v1/a?x=1 HTTP/1.1\r\n\r\n')).toBe('GET /v1/a?x=1&list=true HTTP/1.1\r\n\r\n');
  });

  it('joins obs-folded header lines with one space, as Go\'s textproto does; a folded first header line is left to the parser', () => {
    expect(run('GET /v1/x HTTP/1.1\r\nHost: x\r\nX-A: one  \r\n \t two\r\nX-B: 3\r\n\r\n')).toBe('GET /v1/x HTTP/1.1\r\nHost: x\r\nX-A: one two\r\nX-B: 3\r\n\r\n');
    expect(run('GET /v1/x HTTP/1.1\nHost: x\n\tmore\n\n')).toBe('GET /v1/x HTTP/1.1\nHost: x more\n\n');
    const firstFolded = 'GET /v1/x HTTP/1.1\r\n Host: x\r\n\r\n';
    expect(run(firstFolded)).toBe(firstFolded);
  });

  it('leaves other methods untouched', () => {
    const input = 'GET /v1/x HTTP/1.1\r\nHost: x\r\n\r\nDELETE /v1/y HTTP/1.1\r\n\r\n';
    expect(run(input)).toBe(input);
  });

  it('never touches bodies, whatever they contain', () => {
    const body = 'LIST /v1/evil HTTP/1.1\r\n\r\n';
    const input = `POST /v1/x HTTP/1.1\r\nContent-Length: ${body.length}\r\n\r\n${body}LIST /v1/y HTTP/1.1\r\n\r\n`;
    expect(run(input)).toBe(`POST /v1/x HTTP/1.1\r\nContent-Length: ${body.length}\r\n\r\n${body}GET /v1/y?list=true HTTP/1.1\r\n\r\n`);
  });

  it('follows chunked bodies and trailers', () => {
    const chunked = '5;ext=1\r\nLIST \r\n3\r\nabc\r\n0\r\nX-Trailer: LIST /\r\n\r\n';
    const input = `POST /v1/x HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\n${chunked}LIST /v1/z HTTP/1.1\r\n\r\n`;
    expect(run(input)).toBe(`POST /v1/x HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\n${chunked}GET /v1/z?list=true HTTP/1.1\r\n\r\n`);
  });

  it('gives the same bytes however the stream is split', () => {
    const request = fc.oneof(
      fc.record({ method: fc.constantFrom('GET', 'LIST', 'DELETE'), path: fc.stringMatching(/^\/v1\/[a-z/]{0,12}$/) }).map(
        ({ method, path }) => ({
          raw: `${method} ${path} HTTP/1.1\r\nHost: h\r\n\r\n`,
          expected: method === 'LIST' ? `GET ${path}?list=true HTTP/1.1\r\nHost: h\r\n\r\n` : `${method} ${path} HTTP/1.1\r\nHost: h\r\n\r\n`,
        }),
      ),
      fc.string({ maxLength: 40 }).map((body) => {
        const raw = `POST /v1/p HTTP/1.1\r\nContent-Length: ${Buffer.byteLength(body, 'latin1')}\r\n\r\n${body}`;
        return { raw, expected: raw };
      }),
      fc.array(fc.string({ minLength: 1, maxLength: 20 }), { maxLength: 4 }).map((chunks) => {
        const body = chunks.map((c) => `${Buffer.byteLength(c, 'latin1').toString(16)}\r\n${c}\r\n`).join('') + '0\r\n\r\n';
        const raw = `PUT /v1/p HTTP/1.1\r\ntransfer-encoding: chunked\r\n\r\n${body}`;
        return { raw, expected: raw };
      }),
    );
    fc.assert(
      fc.property(fc.array(request, { minLength: 1, maxLength: 6 }), fc.array(fc.nat(), { maxLength: 12 }), (requests, splits) => {
        const input = requests.map((r) => r.raw).join('');
        expect(run(input, splits)).toBe(requests.map((r) => r.expected).join(''));
      }),
    );
  });

  it('passes garbage through for the HTTP parser to reject', () => {
    const input = 'NOT HTTP AT ALL\r\nContent-Length: abc\r\n\r\nLIST / HTTP/1.1\r\n\r\n';
    expect(run(input)).toBe(input);
  });

  // The service's Go server reads a request line and answers 400 to one that is not HTTP
  // (net/http server.go, readRequest: "malformed HTTP request"); Node's parser does the same once
  // it has the bytes.
  it('hands on at once bytes that cannot begin a request (a TLS ClientHello), not waiting for a line end', () => {
    const rewriter = new HeadRewriter();
    const hello = Buffer.from([0x16, 0x03, 0x01, 0x02, 0x00, 0x01, 0x00, 0x01, 0xfc]);
    expect(Buffer.concat(rewriter.feed(hello))).toEqual(hello);
    const afterBlankLines = new HeadRewriter();
    expect(Buffer.concat(afterBlankLines.feed(Buffer.from('\r\n\x16\x03', 'latin1'))).toString('latin1')).toBe('\r\n\x16\x03');
    // A method split across reads is still held for its line end.
    const split = new HeadRewriter();
    expect(split.feed(Buffer.from('LI'))).toEqual([]);
    expect(Buffer.concat(split.feed(Buffer.from('ST /v1/a HTTP/1.1\r\n\r\n'))).toString()).toBe('GET /v1/a?list=true HTTP/1.1\r\n\r\n');
  });

  it('a head shorter than "LIST " and blank lines read apart from the request they precede are passed on, not thrown on', () => {
    // Both threw a RangeError in a socket listener, which ended the whole emulator. The service
    // answers the first 400 and ignores blank lines before a request line (net/http server.go,
    // readRequest; Node's parser does both once it has the bytes).
    expect(run('X\n\n')).toBe('X\n\n');
    const rewriter = new HeadRewriter();
    expect(rewriter.feed(Buffer.from('\r\n\r\n'))).toEqual([]);
    const request = 'LIST /v1/sys/auth HTTP/1.1\r\nHost: a\r\n\r\n';
    expect(Buffer.concat(rewriter.feed(Buffer.from(request))).toString()).toBe('\r\n\r\nGET /v1/sys/auth?list=true HTTP/1.1\r\nHost: a\r\n\r\n');
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 40 }), fc.array(fc.nat(), { maxLength: 6 }), (bytes, splits) => {
        const input = Buffer.from(bytes).toString('latin1');
        expect(() => run(input, splits)).not.toThrow();
      }),
    );
  });
});
