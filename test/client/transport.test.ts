import { spawn } from 'node:child_process';
import * as http from 'node:http';
import * as net from 'node:net';
import type { AddressInfo, Socket } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { codedError } from '../../src/client/errors.js';
import { createTransport, FRESH_MAX_IDLE_MS, TIMEOUT_CODE, type Exchange, type Transport } from '../../src/client/transport.js';
import { ROOT } from '../support/cli.js';

const servers: Array<http.Server | net.Server> = [];
const transports: Transport[] = [];
afterEach(async () => {
  for (const t of transports.splice(0)) t.close();
  await Promise.all(servers.splice(0).map((s) => new Promise((resolve) => s.close(resolve))));
});

/** A server that answers the socket's number: which connection carried each request. */
async function numberingServer(): Promise<{ port: number; open: () => number }> {
  let sockets = 0;
  let open = 0;
  const server = http.createServer((req, res) => res.end(String((req.socket as unknown as { n: number }).n)));
  server.on('connection', (socket) => {
    (socket as unknown as { n: number }).n = ++sockets;
    open++;
    socket.on('close', () => open--);
  });
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { port: (server.address() as AddressInfo).port, open: () => open };
}

/** A server on a raw socket: `answer` writes what it likes for each request it reads. */
async function rawServer(answer: (socket: Socket, request: string) => void): Promise<{ port: number; closed: () => number; requests: string[] }> {
  let closed = 0;
  const requests: string[] = [];
  const server = net.createServer((socket) => {
    socket.on('error', () => {});
    socket.on('data', (d) => {
      requests.push(d.toString('latin1'));
      answer(socket, d.toString('latin1'));
    });
    socket.on('close', () => closed++);
  });
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { port: (server.address() as AddressInfo).port, closed: () => closed, requests };
}

function transportTo(port: number): Transport {
  const t = createTransport(new URL(`http://127.0.0.1:${port}/v1`), { connectTimeoutMs: 5000, maxConnections: 4, trust: { insecureSkipVerify: false } });
  transports.push(t);
  return t;
}

function exchange(over: Partial<Exchange> = {}): Exchange {
  return { method: 'GET', path: '/v1/x', headers: [], body: undefined, reusable: true, timeoutMs: 5000, timedOut: () => codedError('timed out', TIMEOUT_CODE), ...over };
}

async function get(t: Transport, over: Partial<Exchange> = {}): Promise<string> {
  return (await t.send(exchange(over))).text;
}

describe('the transport', () => {
  it('keeps connections alive', async () => {
    const { port } = await numberingServer();
    const t = transportTo(port);
    // One after another: undici checks an idle connection for a turn of the event loop before it
    // reuses it (GHSA-35p6-xmwp-9g52), so a request sent at once takes the other one: two at most.
    const answers = new Set<string>();
    for (let i = 0; i < 20; i++) answers.add(await get(t));
    expect([...answers].sort()).toEqual(['1', '2']);
    await new Promise((resolve) => setImmediate(resolve));
    expect(['1', '2']).toContain(await get(t));
  });

  it(`sends a call it would not retry only on a connection idle for less than ${FRESH_MAX_IDLE_MS} ms`, async () => {
    const server = await numberingServer();
    const t = transportTo(server.port);
    expect(await get(t, { reusable: false })).toBe('1');
    await new Promise((resolve) => setImmediate(resolve));
    expect(await get(t, { reusable: false })).toBe('1');
    // The rule is undici's keep-alive timer on these connections (undici takes no injected
    // clock): the connection closes once idle that long, as after an approval prompt.
    const idleFrom = Date.now();
    expect(await waitUntil(async () => server.open() === 0)).toBe(true);
    expect(Date.now() - idleFrom).toBeLessThan(FRESH_MAX_IDLE_MS + 500);
    expect(await get(t, { reusable: false })).toBe('2');
    // Calls that may be retried keep their own connections, kept alive as the server allows.
    expect(await get(t)).toBe('3');
    await new Promise((resolve) => setImmediate(resolve));
    expect(await get(t)).toBe('3');
  });

  it('does not reuse a connection the answer says is closing', async () => {
    const server = await rawServer((socket) => socket.write('HTTP/1.1 200 OK\r\nConnection: close\r\nContent-Length: 2\r\n\r\nok'));
    const t = transportTo(server.port);
    expect(await get(t)).toBe('ok');
    expect(await get(t)).toBe('ok');
    await waitUntil(async () => server.closed() === 2);
    expect(server.closed()).toBe(2);
  });

  it('reads a chunked answer and one delimited by the connection end', async () => {
    const chunked = await rawServer((socket) => socket.write('HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n5\r\n{"a":\r\n2\r\n1}\r\n0\r\n\r\n'));
    const untilClose = await rawServer((socket) => socket.end('HTTP/1.1 200 OK\r\n\r\n{"b":2}'));
    const res = await transportTo(chunked.port).send(exchange());
    expect(res.headers['transfer-encoding']).toBe('chunked');
    expect(res.text).toBe('{"a":1}');
    expect(await get(transportTo(untilClose.port))).toBe('{"b":2}');
  });

  it('sends LIST as the method, and a body with its length', async () => {
    const server = await rawServer((socket) => socket.write('HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\n{}'));
    const t = transportTo(server.port);
    await t.send(exchange({ method: 'LIST', path: '/v1/auth/ldap/users' }));
    await t.send(exchange({ method: 'POST', body: '{"ü":1}', headers: ['content-type', 'application/json'], reusable: false }));
    expect(server.requests[0]).toMatch(/^LIST \/v1\/auth\/ldap\/users HTTP\/1\.1\r\n/);
    expect(server.requests[1]).toMatch(/^POST \/v1\/x HTTP\/1\.1\r\n/);
    expect(server.requests[1]).toMatch(/\r\ncontent-length: 8\r\n/i);
    expect(server.requests[1]!.endsWith('\r\n\r\n{"ü":1}')).toBe(false); // latin1 view of UTF-8
    expect(Buffer.from(server.requests[1]!, 'latin1').toString('utf8').endsWith('\r\n\r\n{"ü":1}')).toBe(true);
  });

  it('names an answer that is not HTTP, and one with bytes after its end', async () => {
    const garbage = await rawServer((socket) => socket.write('SSH-2.0-OpenSSH\r\n\r\n'));
    const err = (await transportTo(garbage.port).send(exchange()).catch((e: Error) => e)) as Error & { code: string };
    expect(err.code).toBe('LOCKSTEP_BAD_RESPONSE');
    expect(err.message).toBe('the answer is not valid HTTP/1.1 (Expected HTTP/, RTSP/ or ICE/)');
    const extra = await rawServer((socket) => socket.write('HTTP/1.1 200 OK\r\nContent-Length: 1\r\n\r\n1HTTP/1.1 200 OK\r\n'));
    const t = transportTo(extra.port);
    // The answer is read; the connection that carried more is not used for the next request.
    expect(await get(t)).toBe('1');
    expect(await waitUntil(async () => extra.closed() === 1)).toBe(true);
    expect(await get(t)).toBe('1');
  });

  it('refuses a header value with a line break, naming the header and not its value', async () => {
    const server = await rawServer(() => {});
    const err = await transportTo(server.port)
      .send(exchange({ headers: ['x-vault-token', 'CANARY\r\nX-Injected: 1'] }))
      .catch((e: Error) => e);
    expect((err as Error).message).toBe('request header x-vault-token holds a character HTTP does not allow');
    expect(server.requests).toHaveLength(0);
  });

  it('times out an exchange that gets no answer with the error it was given, and closes its connection', async () => {
    const server = await rawServer(() => {});
    const t = transportTo(server.port);
    const err = await t.send(exchange({ timeoutMs: 20, timedOut: () => codedError('no answer within 20ms', TIMEOUT_CODE) })).catch((e: Error) => e);
    expect((err as Error).message).toBe('no answer within 20ms');
    await waitUntil(async () => server.closed() === 1);
    expect(server.closed()).toBe(1);
  });

  it('does not keep a process alive with idle connections (the built transport, in a process of its own)', async () => {
    const { port } = await numberingServer();
    const script = `
      import { createTransport } from ${JSON.stringify(`${ROOT}dist/client/transport.js`)};
      const t = createTransport(new URL('http://127.0.0.1:${port}/v1'), { connectTimeoutMs: 5000, maxConnections: 4, trust: { insecureSkipVerify: false } });
      const x = (reusable) => ({ method: 'GET', path: '/v1/x', headers: [], reusable, timeoutMs: 5000, timedOut: () => new Error('t') });
      Promise.all([t.send(x(true)), t.send(x(false))]).then(() => console.log('done'));
    `;
    // The server keeps connections open for 5 s: exiting sooner means the idle ones were unref'd.
    const started = Date.now();
    const run = await new Promise<{ status: number | null; stdout: string; stderr: string }>((resolve) => {
      const child = spawn(process.execPath, ['--input-type=module', '-e', script], { timeout: 4000 });
      let stdout = '';
      let stderr = '';
      child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
      child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
      child.on('close', (status) => resolve({ status, stdout, stderr }));
    });
    expect(run.stdout.trim(), run.stderr).toBe('done');
    expect(run.status).toBe(0);
    expect(Date.now() - started).toBeLessThan(4000);
  });
});

/** Polls `check` on the event loop (no fixed sleep) until it holds, for at most 3 s. */
async function waitUntil(check: () => Promise<boolean>): Promise<boolean> {
  const until = Date.now() + 3000;
  while (Date.now() < until) {
    if (await check()) return true;
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  return false;
}
