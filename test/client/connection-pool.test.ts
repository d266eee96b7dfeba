import { spawn } from 'node:child_process';
import * as http from 'node:http';
import * as net from 'node:net';
import type { AddressInfo, Socket } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { ConnectionPool, idleMsOf, TIMEOUT_CODE } from '../../src/client/connection-pool.js';
import { ROOT } from '../support/cli.js';

const servers: http.Server[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => new Promise((resolve) => s.close(resolve))));
});

/** A server that answers the socket's number: which connection carried each request. */
async function numberingServer(keepAliveTimeout = 5000, afterAnswer?: (socket: Socket) => void): Promise<{ port: number; open: () => number }> {
  let sockets = 0;
  let open = 0;
  const server = http.createServer((req, res) => {
    res.end(String((req.socket as unknown as { n: number }).n));
    afterAnswer?.(req.socket);
  });
  server.keepAliveTimeout = keepAliveTimeout;
  server.on('connection', (socket) => {
    (socket as unknown as { n: number }).n = ++sockets;
    open++;
    socket.on('close', () => open--);
  });
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { port: (server.address() as AddressInfo).port, open: () => open };
}

const GET = 'GET /v1/x HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n';

function poolFor(port: number): ConnectionPool {
  return new ConnectionPool({ host: '127.0.0.1', port });
}

async function get(pool: ConnectionPool): Promise<string> {
  return (await pool.exchange(GET, true, 5000)).body.toString();
}

/** A server on a raw socket: `answer` writes what it likes for each request it reads. */
async function rawServer(answer: (socket: Socket) => void): Promise<{ port: number; closed: () => number }> {
  let closed = 0;
  const server = net.createServer((socket) => {
    socket.on('data', () => answer(socket));
    socket.on('close', () => closed++);
  });
  rawServers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { port: (server.address() as AddressInfo).port, closed: () => closed };
}

const rawServers: net.Server[] = [];
afterEach(async () => {
  await Promise.all(rawServers.splice(0).map((s) => new Promise((resolve) => s.close(resolve))));
});

async function codeOf(p: Promise<unknown>): Promise<unknown> {
  try {
    await p;
  } catch (err) {
    return (err as { code?: unknown }).code;
  }
  throw new Error('expected a rejection');
}

describe('the connection pool', () => {
  it('reuses the socket freed last, and opens another only when none is idle', async () => {
    const { port } = await numberingServer();
    const pool = poolFor(port);
    try {
      expect(await get(pool)).toBe('1');
      expect(await get(pool)).toBe('1');
      const both = await Promise.all([get(pool), get(pool)]);
      expect(both.sort()).toEqual(['1', '2']);
      expect(await get(pool)).toMatch(/^[12]$/);
    } finally {
      pool.destroy();
    }
  });

  it('drops a socket the server closed while idle, and connects anew', async () => {
    // No Keep-Alive hint; the server hangs up on its own shortly after answering.
    const server = await numberingServer(0, (socket) => setTimeout(() => socket.destroy(), 20));
    const pool = poolFor(server.port);
    try {
      expect(await get(pool)).toBe('1');
      await new Promise((resolve) => setTimeout(resolve, 150));
      expect(server.open()).toBe(0);
      expect(await get(pool)).toBe('2');
    } finally {
      pool.destroy();
    }
  });

  it("honours the server's Keep-Alive timeout, leaving a second's margin as Node's Agent does", async () => {
    // timeout=1: no margin left, so the socket is not kept at all.
    const oneSecond = await numberingServer(1000);
    const pool = poolFor(oneSecond.port);
    try {
      expect(await get(pool)).toBe('1');
      expect(await get(pool)).toBe('2');
    } finally {
      pool.destroy();
    }
    // timeout=2: reused for a second, then not (the next request opens another connection).
    const twoSeconds = await numberingServer(2000);
    const other = poolFor(twoSeconds.port);
    try {
      expect(await get(other)).toBe('1');
      expect(await get(other)).toBe('1');
      await new Promise((resolve) => setTimeout(resolve, 1100));
      expect(await get(other)).toBe('2');
    } finally {
      other.destroy();
    }
  });

  it('opens a new connection for a request that allows only a short idle time', async () => {
    const { port } = await numberingServer();
    const pool = poolFor(port);
    try {
      expect(await get(pool)).toBe('1');
      await new Promise((resolve) => setTimeout(resolve, 80));
      expect((await pool.exchange(GET, true, 5000, 50)).body.toString()).toBe('2');
      expect((await pool.exchange(GET, true, 5000, 50)).body.toString()).toBe('2');
      await new Promise((resolve) => setTimeout(resolve, 80));
      expect(await get(pool)).toBe('2');
    } finally {
      pool.destroy();
    }
  });

  it('reads the idle time from the Keep-Alive header', () => {
    expect(idleMsOf(undefined)).toBe(Infinity);
    expect(idleMsOf('max=5')).toBe(Infinity);
    expect(idleMsOf('timeout=5')).toBe(4000);
    expect(idleMsOf('timeout=5, max=1000')).toBe(4000);
    expect(idleMsOf('timeout=1')).toBe(0);
    expect(idleMsOf('timeout=0')).toBe(0);
  });

  it('closes every socket on destroy', async () => {
    const server = await numberingServer();
    const pool = poolFor(server.port);
    await Promise.all([get(pool), get(pool), get(pool)]);
    expect(server.open()).toBeGreaterThan(0);
    pool.destroy();
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(server.open()).toBe(0);
  });

  it('does not keep a process alive with idle sockets (the built pool, in a process of its own)', async () => {
    const { port } = await numberingServer();
    const script = `
      import { ConnectionPool } from ${JSON.stringify(`${ROOT}dist/client/connection-pool.js`)};
      const pool = new ConnectionPool({ host: '127.0.0.1', port: ${port} });
      pool.exchange(${JSON.stringify(GET)}, true, 5000).then(() => console.log('done'));
    `;
    // The server keeps the connection open for 5 s: exiting sooner means the idle socket was unref'd.
    const started = Date.now();
    // Not spawnSync: this process's server must answer meanwhile.
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

  it('times out an exchange that gets no answer, and closes its connection', async () => {
    const server = await rawServer(() => {});
    const pool = poolFor(server.port);
    try {
      expect(await codeOf(pool.exchange(GET, true, 100))).toBe(TIMEOUT_CODE);
      await new Promise((resolve) => setTimeout(resolve, 50));
      expect(server.closed()).toBe(1);
    } finally {
      pool.destroy();
    }
  });

  it('drops a connection whose answer is not HTTP, or that sends bytes nobody asked for', async () => {
    const garbage = await rawServer((socket) => socket.write('SSH-2.0-OpenSSH\r\n\r\n'));
    const pool = poolFor(garbage.port);
    const extra = await rawServer((socket) => socket.write('HTTP/1.1 200 OK\r\nContent-Length: 1\r\n\r\n1HTTP/1.1 200 OK\r\n'));
    const other = poolFor(extra.port);
    try {
      expect(await codeOf(pool.exchange(GET, true, 5000))).toBe('LOCKSTEP_BAD_RESPONSE');
      // The answer is read; the connection that carried more is not kept for the next request.
      expect((await other.exchange(GET, true, 5000)).body.toString()).toBe('1');
      expect((await other.exchange(GET, true, 5000)).body.toString()).toBe('1');
      await new Promise((resolve) => setTimeout(resolve, 50));
      expect(garbage.closed()).toBe(1);
      expect(extra.closed()).toBe(2);
    } finally {
      pool.destroy();
      other.destroy();
    }
  });

  it('does not reuse a connection the answer says is closing, and sends the next request on a new one', async () => {
    const server = await rawServer((socket) => socket.write('HTTP/1.1 200 OK\r\nConnection: close\r\nContent-Length: 2\r\n\r\nok'));
    const pool = poolFor(server.port);
    try {
      expect((await pool.exchange(GET, true, 5000)).body.toString()).toBe('ok');
      expect((await pool.exchange(GET, true, 5000)).body.toString()).toBe('ok');
      await new Promise((resolve) => setTimeout(resolve, 50));
      expect(server.closed()).toBe(2);
    } finally {
      pool.destroy();
    }
  });

  it('reads a chunked answer and one delimited by the connection end', async () => {
    const server = http.createServer((_req, res) => {
      res.write('{"a":');
      setTimeout(() => res.end('1}'), 10);
    });
    servers.push(server);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const pool = poolFor((server.address() as AddressInfo).port);
    const untilClose = await rawServer((socket) => socket.end('HTTP/1.1 200 OK\r\n\r\n{"b":2}'));
    const other = poolFor(untilClose.port);
    try {
      const res = await pool.exchange(GET, true, 5000);
      expect(res.headers['transfer-encoding']).toBe('chunked');
      expect(res.body.toString()).toBe('{"a":1}');
      expect((await other.exchange(GET, true, 5000)).body.toString()).toBe('{"b":2}');
    } finally {
      pool.destroy();
      other.destroy();
    }
  });
});
