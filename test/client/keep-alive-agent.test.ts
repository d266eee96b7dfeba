import { spawn } from 'node:child_process';
import * as http from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { createKeepAliveAgent, idleMsOf } from '../../src/client/keep-alive-agent.js';
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

function get(agent: http.Agent, port: number): Promise<{ body: string; reused: boolean }> {
  return new Promise((resolve, reject) => {
    const req = http.request({ agent, host: '127.0.0.1', port, path: '/v1/x' }, (res) => {
      let body = '';
      res.on('data', (c: Buffer) => (body += c.toString()));
      res.on('end', () => resolve({ body, reused: req.reusedSocket }));
    });
    req.on('error', reject);
    req.end();
  });
}

describe('the keep-alive agent', () => {
  it('reuses the socket freed last, and opens another only when none is idle', async () => {
    const { port } = await numberingServer();
    const agent = createKeepAliveAgent();
    try {
      expect(await get(agent, port)).toEqual({ body: '1', reused: false });
      expect(await get(agent, port)).toEqual({ body: '1', reused: true });
      const both = await Promise.all([get(agent, port), get(agent, port)]);
      expect(both.map((r) => r.body).sort()).toEqual(['1', '2']);
      expect(await get(agent, port)).toEqual({ body: expect.stringMatching(/^[12]$/), reused: true });
    } finally {
      agent.destroy();
    }
  });

  it('drops a socket the server closed while idle, and connects anew', async () => {
    // No Keep-Alive hint; the server hangs up on its own shortly after answering.
    const server = await numberingServer(0, (socket) => setTimeout(() => socket.destroy(), 20));
    const agent = createKeepAliveAgent();
    try {
      expect((await get(agent, server.port)).body).toBe('1');
      await new Promise((resolve) => setTimeout(resolve, 150));
      expect(server.open()).toBe(0);
      expect(await get(agent, server.port)).toEqual({ body: '2', reused: false });
    } finally {
      agent.destroy();
    }
  });

  it("honours the server's Keep-Alive timeout, leaving a second's margin as Node's Agent does", async () => {
    // timeout=1: no margin left, so the socket is not kept at all.
    const oneSecond = await numberingServer(1000);
    const agent = createKeepAliveAgent();
    try {
      expect((await get(agent, oneSecond.port)).body).toBe('1');
      expect(await get(agent, oneSecond.port)).toEqual({ body: '2', reused: false });
    } finally {
      agent.destroy();
    }
    // timeout=2: kept for a second, then closed by the agent before the server would.
    const twoSeconds = await numberingServer(2000);
    const other = createKeepAliveAgent();
    try {
      expect((await get(other, twoSeconds.port)).body).toBe('1');
      expect(await get(other, twoSeconds.port)).toEqual({ body: '1', reused: true });
      await new Promise((resolve) => setTimeout(resolve, 1200));
      expect(twoSeconds.open()).toBe(0);
      expect(await get(other, twoSeconds.port)).toEqual({ body: '2', reused: false });
    } finally {
      other.destroy();
    }
  });

  it('reads the idle time from the Keep-Alive header', () => {
    expect(idleMsOf(undefined)).toBe(Infinity);
    expect(idleMsOf('max=5')).toBe(Infinity);
    expect(idleMsOf('timeout=5')).toBe(4000);
    expect(idleMsOf('timeout=5, max=1000')).toBe(4000);
    expect(idleMsOf(['timeout=3'])).toBe(2000);
    expect(idleMsOf('timeout=1')).toBe(0);
    expect(idleMsOf('timeout=0')).toBe(0);
  });

  it('closes every socket on destroy', async () => {
    const server = await numberingServer();
    const agent = createKeepAliveAgent();
    await Promise.all([get(agent, server.port), get(agent, server.port), get(agent, server.port)]);
    expect(server.open()).toBeGreaterThan(0);
    agent.destroy();
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(server.open()).toBe(0);
  });

  it('does not keep a process alive with idle sockets (the built agent, in a process of its own)', async () => {
    const { port } = await numberingServer();
    const script = `
      import http from 'node:http';
      import { createKeepAliveAgent } from ${JSON.stringify(`${ROOT}dist/client/keep-alive-agent.js`)};
      const agent = createKeepAliveAgent();
      http.get({ agent, host: '127.0.0.1', port: ${port}, path: '/' }, (res) => { res.resume(); res.on('end', () => console.log('done')); });
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
});
