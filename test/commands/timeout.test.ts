import * as net from 'node:net';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../support/cli.js';

const TOKEN = 'hvs.CANARY-timeout-token-3f2a';
let server: net.Server;
let port: number;
const sockets = new Set<net.Socket>();

beforeAll(async () => {
  // Accepts connections and never answers: a hung server.
  server = net.createServer((socket) => {
    sockets.add(socket);
    socket.on('error', () => {});
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  port = (server.address() as AddressInfo).port;
});

afterAll(async () => {
  for (const s of sockets) s.destroy();
  await new Promise((resolve) => server.close(resolve));
});

describe('--timeout: the run deadline (#13.12)', () => {
  it('#13.12: a run against a server that never answers ends at the deadline, saying so', async () => {
    const started = performance.now();
    const res = await runCli(['--timeout', '1s', 'export'], { env: { SERVICE_ADDR: `http://127.0.0.1:${port}`, SERVICE_TOKEN: TOKEN } });
    const tookMs = performance.now() - started;
    expect(res.code, res.stderr).not.toBe(0);
    expect(res.stderr).toContain('run deadline of 1s reached');
    expect(res.stderr).not.toContain('CANARY');
    expect(res.stderr).not.toMatch(/\n\s+at /);
    expect(tookMs).toBeLessThan(10_000);
  });

  it('refuses a --timeout that is not a duration, before any request', async () => {
    const res = await runCli(['--timeout', 'soon', 'export'], { env: { SERVICE_ADDR: `http://127.0.0.1:${port}`, SERVICE_TOKEN: TOKEN } });
    expect(res.code).not.toBe(0);
    expect(res.stderr.trim()).toBe('error: --timeout must be a duration of at least 1s, such as 90s, 10m or 1h (got "soon")');
  });
});
