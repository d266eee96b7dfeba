import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_BODY_BYTES } from '../../../src/server/http/request-body.js';
import { RawConnection, startTestServer } from '../helpers.js';

/**
 * #13.7: the token is checked before any of the body is read, and bodies are capped at the
 * service's default max_request_size, 32 MiB, answered 413 (hashicorp/vault http/handler.go,
 * DefaultMaxRequestSize; http/logical.go turns the size error into 413 via
 * logical.AdjustErrorStatusCode).
 */
let server: Awaited<ReturnType<typeof startTestServer>>;
let port: number;
let rootToken: string;

beforeAll(async () => {
  server = await startTestServer();
  ({ port, rootToken } = server.clusters[0]!);
});
afterAll(() => server.close());

function head(lines: string[]): string {
  return [...lines, '', ''].join('\r\n');
}

describe('#13.7 the body is read after the token check, and capped', () => {
  it('#13.7: a request without a token announcing a 1 GiB body gets its 403 before sending any of it; the connection is closed', async () => {
    const conn = await RawConnection.open(port);
    conn.send(head(['POST /v1/sys/auth/big HTTP/1.1', 'Host: x', 'Content-Type: application/json', `Content-Length: ${1024 ** 3}`]));
    const res = await conn.readResponse();
    expect(res.status).toBe(403);
    expect(JSON.parse(res.body)).toEqual({ errors: ['permission denied'] });
    expect(res.headers.connection).toBe('close');
    await conn.closedByServer();
  });

  it('#13.7: with Expect: 100-continue, a request without a valid token is answered 403 and never invited to send its body', async () => {
    const conn = await RawConnection.open(port);
    conn.send(head(['POST /v1/sys/auth/big HTTP/1.1', 'Host: x', 'X-Vault-Token: wrong', 'Expect: 100-continue', 'Content-Length: 16']));
    expect((await conn.readResponse()).status).toBe(403);
    await conn.closedByServer();
  });

  it('#13.7: with Expect: 100-continue and the root token, 100 Continue comes once the token is checked, then the write is served', async () => {
    const conn = await RawConnection.open(port);
    const body = JSON.stringify({ type: 'ldap' });
    conn.send(head(['POST /v1/sys/auth/continued HTTP/1.1', 'Host: x', `X-Vault-Token: ${rootToken}`, 'Expect: 100-continue', `Content-Length: ${body.length}`]));
    expect((await conn.readResponse()).status).toBe(100);
    conn.send(body);
    expect((await conn.readResponse()).status).toBe(204);
    conn.close();
  });

  it('#13.7: a small body left unread (403) keeps the connection for the next request', async () => {
    const conn = await RawConnection.open(port);
    conn.send(head(['POST /v1/sys/auth/small HTTP/1.1', 'Host: x', 'Content-Length: 2']) + '{}');
    const refused = await conn.readResponse();
    expect(refused.status).toBe(403);
    expect(refused.headers.connection).not.toBe('close');
    conn.send(head(['GET /v1/sys/health HTTP/1.1', 'Host: x']));
    expect((await conn.readResponse()).status).toBe(200);
    conn.close();
  });

  it('#13.7: with the root token, a body announced over 32 MiB is answered 413 without being read', async () => {
    const conn = await RawConnection.open(port);
    conn.send(head(['POST /v1/sys/auth/big HTTP/1.1', 'Host: x', `X-Vault-Token: ${rootToken}`, `Content-Length: ${MAX_BODY_BYTES + 1}`]));
    const res = await conn.readResponse();
    expect(res.status).toBe(413);
    expect(JSON.parse(res.body)).toEqual({ errors: ['http: request body too large'] });
    await conn.closedByServer();
  });

  it('#13.7: with the root token, a chunked body that grows over 32 MiB is answered 413', async () => {
    expect(MAX_BODY_BYTES).toBe(32 * 1024 * 1024);
    const conn = await RawConnection.open(port);
    conn.send(head(['POST /v1/sys/auth/big HTTP/1.1', 'Host: x', `X-Vault-Token: ${rootToken}`, 'Transfer-Encoding: chunked']));
    const chunk = Buffer.alloc(1024 * 1024, 0x20);
    const framed = Buffer.concat([Buffer.from(`${chunk.length.toString(16)}\r\n`), chunk, Buffer.from('\r\n')]);
    for (let i = 0; i <= MAX_BODY_BYTES / chunk.length; i++) conn.send(framed);
    const res = await conn.readResponse();
    expect(res.status).toBe(413);
    await conn.closedByServer();
    expect(Object.keys((await (await fetch(`${server.clusters[0]!.baseUrl}/sys/auth`, { headers: { 'X-Vault-Token': rootToken } })).json()).data)).not.toContain('big/');
  });
});
