import { afterEach, describe, expect, it } from 'vitest';
import { createClusterClient } from '../../src/client/http-client.js';
import { ConcurrencyLimiter } from '../../src/client/limiter.js';
import type { ExchangeReport } from '../../src/client/types.js';
import { Secret } from '../../src/core/secret.js';
import { closedPort, envelope, json, startServer, type TestServer } from './server.js';
import { caught, client, closeClients } from './support.js';

// The client tells onExchange of every attempt it sends (the request log of --log-level debug is
// built on it), from the one place every request passes: reads, writes, retries, a login, the
// revocation at the end. Times come from the injected clock.
let server: TestServer | undefined;
afterEach(async () => {
  closeClients();
  await server?.close();
  server = undefined;
});

/** A clock that moves 7 ms each time it is read. */
function steppingClock(): () => number {
  let t = 1000;
  return () => (t += 7);
}

describe('exchange reports', () => {
  it('one per attempt, numbered, with the status and the time the clock gave; as many as requestCount', async () => {
    let calls = 0;
    server = await startServer((_req, res) => (++calls === 1 ? json(res, 503, { errors: ['sealed'] }) : json(res, 200, envelope({ keys: ['a'] }))));
    const reports: ExchangeReport[] = [];
    const c = client(server.baseUrl, { onExchange: (e) => reports.push(e), now: steppingClock(), wait: async () => {} });
    await c.request('LIST', { segments: ['team-a', 'auth', 'ldap', 'users'] });
    await c.request('GET', 'sys/internal/specs/openapi', { query: { generic_mount_paths: 'true' } });
    expect(reports).toEqual([
      { cluster: 'east', method: 'LIST', path: 'team-a/auth/ldap/users', query: undefined, attempt: 1, elapsedMs: 7, outcome: { kind: 'answer', status: 503 } },
      { cluster: 'east', method: 'LIST', path: 'team-a/auth/ldap/users', query: undefined, attempt: 2, elapsedMs: 7, outcome: { kind: 'answer', status: 200 } },
      { cluster: 'east', method: 'GET', path: 'sys/internal/specs/openapi', query: { generic_mount_paths: 'true' }, attempt: 1, elapsedMs: 7, outcome: { kind: 'answer', status: 200 } },
    ]);
    expect(c.requestCount).toBe(reports.length);
  });

  it('an attempt with no answer says how it failed', async () => {
    const port = await closedPort();
    const reports: ExchangeReport[] = [];
    const c = client(`http://127.0.0.1:${port}/v1`, { onExchange: (e) => reports.push(e), now: steppingClock(), retries: 1, wait: async () => {} });
    await caught(() => c.read('sys/auth'));
    expect(reports.map((r) => [r.attempt, r.outcome])).toEqual([
      [1, { kind: 'no-answer', code: 'ECONNREFUSED' }],
      [2, { kind: 'no-answer', code: 'ECONNREFUSED' }],
    ]);
  });

  it("a login's requests are reported as any other, by path alone: the login, the calls with its token, the revocation", async () => {
    server = await startServer((req, res) => {
      if (req.url.endsWith('/auth/approle/login')) json(res, 200, { auth: { client_token: 'hvs.login-token-canary-2b7e' } });
      else if (req.url.endsWith('/auth/token/revoke-self')) res.writeHead(204).end();
      else json(res, 200, envelope({}));
    });
    const reports: ExchangeReport[] = [];
    const c = createClusterClient(
      {
        name: 'ci',
        address: server.baseUrl,
        auth: { method: 'approle', mount: 'approle', roleId: new Secret('role-id-canary-4c1d', 'env:R'), secretId: new Secret('secret-id-canary-9e0f', 'env:S') },
        authSource: 'test',
        insecureSkipVerify: false,
      },
      { limiter: new ConcurrencyLimiter(4), onExchange: (e) => reports.push(e), now: steppingClock() },
    );
    try {
      await c.read('sys/auth');
      await c.logout();
    } finally {
      c.close();
    }
    expect(reports.map((r) => `${r.method} ${r.path} ${JSON.stringify(r.outcome)}`)).toEqual([
      'POST auth/approle/login {"kind":"answer","status":200}',
      'GET sys/auth {"kind":"answer","status":200}',
      'POST auth/token/revoke-self {"kind":"answer","status":204}',
    ]);
    expect(JSON.stringify(reports)).not.toMatch(/canary/);
  });
});
