/** Shared bits of the managed-key server tests: a server with collected logs and a recording client. */
import { expect } from 'vitest';
import { startServer, type RunningCluster, type RunningServer, type ServerOptions } from '../../../src/server/index.js';
import { apiClient, type ApiResponse } from '../helpers.js';

export type Answer = ApiResponse;

export interface KeyServer {
  server: RunningServer;
  /** Every log line the server wrote. */
  logs: string[];
  /** Every response body text received by clients made with client(). */
  texts: string[];
  /** Client of a cluster (default the first) in a namespace ('' = root). */
  client(namespace?: string, cluster?: RunningCluster): KeyClient;
  close(): Promise<void>;
}

export type KeyClient = ReturnType<typeof makeClient>;

/** Always pass keyBackends (env: {} unless a test wants some) so the host environment plays no part. */
export async function startKeyServer(opts: ServerOptions = {}): Promise<KeyServer> {
  const logs: string[] = [];
  const texts: string[] = [];
  const server = await startServer({ port: 0, log: (line) => logs.push(line), keyBackends: { env: {} }, ...opts });
  return {
    server,
    logs,
    texts,
    client: (namespace = '', cluster = server.clusters[0]!) => makeClient(cluster, namespace, texts),
    close: () => server.close(),
  };
}

function makeClient(cluster: RunningCluster, namespace: string, texts: string[]) {
  const api = apiClient(cluster, undefined, { namespace, onText: (text) => texts.push(text) });
  const { call } = api;
  return {
    ...api,
    /** POST sys/managed-keys/:type/:name, expecting success. */
    async putKey(type: string, name: string, config: Record<string, unknown>): Promise<void> {
      const res = await call('POST', `sys/managed-keys/${type}/${name}`, config);
      if (res.status !== 204 && res.status !== 200) throw new Error(`POST ${type}/${name}: ${res.status} ${JSON.stringify(res.body)}`);
    },
    testSign: (type: string, name: string, body: Record<string, unknown> = {}) => call('POST', `sys/managed-keys/${type}/${name}/test/sign`, body),
  };
}

/** test/sign succeeded: 2xx with no data. */
export function expectSigned(res: Answer): void {
  expect(res, JSON.stringify(res.body)).toMatchObject({ status: 204 });
  expect(res.body).toBeUndefined();
}

/** test/sign failed with a 400 whose single message matches. */
export function expectRefused(res: Answer, message: RegExp): void {
  expect(res.status, JSON.stringify(res.body)).toBe(400);
  expect(res.body.errors).toHaveLength(1);
  expect(res.body.errors[0]).toMatch(message);
}

/** No canary (secret) text in any response body or log line. */
export function expectNoCanaries(s: KeyServer, canaries: string[]): void {
  expect(s.texts.length).toBeGreaterThan(0);
  for (const canary of canaries) {
    for (const text of [...s.texts, ...s.logs]) expect(text).not.toContain(canary);
  }
}

/** The server logged a test/sign failure of this key. */
export function expectLoggedFailure(s: KeyServer, address: string): void {
  expect(s.logs.some((l) => l.startsWith(`managed key ${address}: test/sign failed: `)), s.logs.join('\n')).toBe(true);
}
