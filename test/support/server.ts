import { startServer, type Clock, type RunningServer } from '../../src/server/index.js';

export interface TestCluster {
  server: RunningServer;
  name: string;
  baseUrl: string;
  token: string;
  /** Environment for the implicit cluster (SERVICE_ADDR / SERVICE_TOKEN). */
  env: Record<string, string>;
  /** Raw HTTP against the server, behind lockstep's back. */
  raw(method: string, path: string, body?: unknown): Promise<{ status: number; body: unknown }>;
}

/**
 * Starts the embedded server on a random loopback port, with a fixed root token; on `clock`
 * when given (the server's schedules then run as the test advances it; the CLI runs for real).
 * `latencyMs` with `wait`: every request waits on `wait` before it is handled (a test holds
 * requests there, as `serve --latency` holds them on a timer).
 */
export async function startTestServer(
  token = `root-${Math.random().toString(36).slice(2)}`,
  opts: { clock?: Clock; latencyMs?: number; wait?: (ms: number) => Promise<void> } = {},
): Promise<TestCluster> {
  const server = await startServer({ port: 0, rootToken: token, clock: opts.clock, latencyMs: opts.latencyMs, wait: opts.wait });
  const c = server.clusters[0]!;
  return {
    server,
    name: c.name,
    baseUrl: c.baseUrl,
    token,
    env: { SERVICE_ADDR: c.baseUrl, SERVICE_TOKEN: token },
    raw: async (method, path, body) => {
      const res = await fetch(`${c.baseUrl}/${path}`, {
        method,
        headers: { 'X-Vault-Token': token, 'Content-Type': 'application/json' },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      const text = await res.text();
      return { status: res.status, body: text ? JSON.parse(text) : null };
    },
  };
}
