import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RawConnection, startTestServer } from '../helpers.js';

/**
 * What Go's net/http server (and Vault's outermost handler) answer before any API handler, and
 * serve answers as they do (compared with OpenBao in test/real-server/corpus.ts): `OPTIONS *`,
 * a target url.ParseRequestURI refuses, a path not under /v1/, a folded header line, a header
 * block over Node's 16 KB but under Go's 1 MB, the HTML body of a GET's redirect.
 */
let server: Awaited<ReturnType<typeof startTestServer>>;
let port: number;

beforeAll(async () => {
  server = await startTestServer();
  port = server.clusters[0]!.port;
});
afterAll(() => server.close());

async function exchange(request: string): Promise<{ status: number; headers: Record<string, string>; body: string }> {
  const connection = await RawConnection.open(port);
  try {
    connection.send(request);
    return await connection.readResponse();
  } finally {
    connection.close();
  }
}

describe("Go's net/http in front of the API", () => {
  it('answers OPTIONS * with 200 and no body (net/http server.go globalOptionsHandler)', async () => {
    const res = await exchange('OPTIONS * HTTP/1.1\r\nHost: x\r\n\r\n');
    expect(res.status).toBe(200);
    expect(res.headers['content-length']).toBe('0');
    expect(res.headers['cache-control']).toBeUndefined();
  });

  it('answers 400 Bad Request, plain text, closing, to an absolute-form target whose authority url.ParseRequestURI refuses', async () => {
    for (const authority of ['[::1', 'host:8x', 'a%zz', '[::1]x', 'h%41st', 'u%zz@host']) {
      const connection = await RawConnection.open(port);
      connection.send(`GET http://${authority}/v1/sys/health HTTP/1.1\r\nHost: x\r\n\r\n`);
      const res = await connection.readResponse();
      expect([authority, res.status, res.body, res.headers['content-type']]).toEqual([authority, 400, '400 Bad Request', 'text/plain; charset=utf-8']);
      await connection.closedByServer();
    }
    for (const authority of ['[::1]:8200', 'user:pw@host:8200', 'host:', 'h%C3%A9st', '[fe80::1%25en0]:1']) {
      const res = await exchange(`GET http://${authority}/v1/sys/health HTTP/1.1\r\nHost: x\r\n\r\n`);
      expect([authority, res.status]).toEqual([authority, 200]);
    }
  });

  it("answers 404 to a path not under /v1/ before it would be cleaned (vault http/handler.go wrapGenericHandler)", async () => {
    for (const target of ['//v1/sys/health', '/x/../v1/sys/health', '///v1/sys/health', '/v2/sys/health']) {
      const res = await exchange(`GET ${target} HTTP/1.1\r\nHost: x\r\n\r\n`);
      expect([target, res.status, JSON.parse(res.body)]).toEqual([target, 404, { errors: [] }]);
    }
    expect((await exchange('GET /v1/../v1/sys/health HTTP/1.1\r\nHost: x\r\n\r\n')).status).toBe(301);
  });

  it('redirects a GET with an HTML body naming the location, a HEAD with its content type only, a POST bare (net/http Redirect)', async () => {
    const get = await exchange('GET /v1/sys//health?a=<b> HTTP/1.1\r\nHost: x\r\n\r\n');
    expect([get.status, get.headers['location'], get.headers['content-type'], get.body]).toEqual([301, '/v1/sys/health?a=<b>', 'text/html; charset=utf-8', '<a href="/v1/sys/health?a=&lt;b&gt;">Moved Permanently</a>.\n\n']);
    const head = await exchange('HEAD /v1/sys//health HTTP/1.1\r\nHost: x\r\n\r\n');
    expect([head.status, head.headers['content-type']]).toEqual([301, 'text/html; charset=utf-8']);
    const post = await exchange('POST /v1/sys//health HTTP/1.1\r\nHost: x\r\nContent-Length: 0\r\n\r\n');
    expect([post.status, post.headers['content-type'], post.body]).toEqual([301, undefined, '']);
  });

  it('reads a folded header line joined to the one above (Go textproto), so a folded token is that token with a space', async () => {
    const token = server.clusters[0]!.rootToken;
    const folded = await exchange(`GET /v1/sys/auth HTTP/1.1\r\nHost: x\r\nX-Vault-Token: ${token}\r\n tail\r\n\r\n`);
    expect(folded.status).toBe(403);
    const other = await exchange(`GET /v1/sys/auth HTTP/1.1\r\nHost: x\r\nX-Vault-Token: ${token}\r\nX-Note: one\r\n\ttwo\r\n\r\n`);
    expect(other.status).toBe(200);
  });

  it("takes a header block up to Go's 1 MB + 4096 (DefaultMaxHeaderBytes), not Node's 16 KB, LIST included", async () => {
    const token = server.clusters[0]!.rootToken;
    const long = 'p'.repeat(200_000);
    expect((await exchange(`GET /v1/sys/${long} HTTP/1.1\r\nHost: x\r\nX-Vault-Token: ${token}\r\n\r\n`)).status).toBe(404);
    expect((await exchange(`LIST /v1/sys/${long} HTTP/1.1\r\nHost: x\r\nX-Vault-Token: ${token}\r\n\r\n`)).status).toBe(404);
    const over = await exchange(`GET /v1/sys/health HTTP/1.1\r\nHost: x\r\nX-Big: ${'b'.repeat(1_100_000)}\r\n\r\n`);
    expect(over.status).toBe(431);
  });
});
