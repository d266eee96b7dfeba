import { afterEach, describe, expect, it } from 'vitest';
import { createClusterClient } from '../../src/client/http-client.js';
import { ConcurrencyLimiter } from '../../src/client/limiter.js';
import { Secret } from '../../src/core/secret.js';
import { json, startServer, type TestServer } from './server.js';
import { caught, client, closeClients } from './support.js';
import { listNames } from '../../src/kinds/live-read.js';

let server: TestServer | undefined;
afterEach(async () => {
  closeClients();
  await server?.close();
  server = undefined;
});

const LOGIN_TOKEN = 'hvs.LOGIN-canary-7f3a';
const JWT = 'eyJ.jwt-canary.sig';

/** A server that issues LOGIN_TOKEN on `auth/jwt/login` and answers the rest for that token only. */
async function loginServer(): Promise<TestServer> {
  return startServer((req, res) => {
    if (req.url.endsWith('/auth/jwt/login')) json(res, 200, { auth: { client_token: LOGIN_TOKEN, policies: ['default'] } });
    else if (req.headers['x-vault-token'] !== LOGIN_TOKEN) json(res, 403, { errors: ['permission denied'] });
    else if (req.url.endsWith('/auth/token/revoke-self')) res.writeHead(204).end();
    else json(res, 200, { data: { ok: true } });
  });
}

function jwtClient(baseUrl: string, seen: string[] = []) {
  return createClusterClient(
    { name: 'ci', address: baseUrl, auth: { method: 'jwt', mount: 'jwt', role: 'deploy', jwt: new Secret(`${JWT}\n`, 'env:CI_JOB_JWT') }, authSource: 'test', insecureSkipVerify: false },
    { limiter: new ConcurrencyLimiter(4), onSecret: (text) => seen.push(text) },
  );
}

describe('a login client', () => {
  it('logs in once, before its first request, however many start at once; revokes the login token at logout', async () => {
    server = await loginServer();
    const secrets: string[] = [];
    const c = jwtClient(server.baseUrl, secrets);
    const answers = await Promise.all(Array.from({ length: 10 }, (_, i) => c.read(`x/${i}`)));
    expect(answers).toHaveLength(10);
    const logins = server.seen.filter((r) => r.url.endsWith('/auth/jwt/login'));
    expect(logins).toHaveLength(1);
    expect(logins[0]!.headers['x-vault-token']).toBeUndefined();
    // The JWT without its line break, and the role, as the method reads them.
    expect(JSON.parse(logins[0]!.body)).toEqual({ role: 'deploy', jwt: JWT });
    // The run's redaction set hears of the JWT sent and the token issued.
    expect(secrets).toEqual(expect.arrayContaining([JWT, LOGIN_TOKEN]));
    await c.logout();
    expect(server.seen.at(-1)).toMatchObject({ method: 'POST', url: '/v1/auth/token/revoke-self' });
    expect(server.seen.at(-1)!.headers['x-vault-token']).toBe(LOGIN_TOKEN);
    c.close();
  });

  it('a call still waiting for its turn when logout begins (a run stopped by a signal) is not sent with the token being revoked', async () => {
    server = await loginServer();
    const c = createClusterClient(
      { name: 'ci', address: server.baseUrl, auth: { method: 'jwt', mount: 'jwt', role: 'deploy', jwt: new Secret(JWT, 'env:CI_JOB_JWT') }, authSource: 'test', insecureSkipVerify: false },
      { limiter: new ConcurrencyLimiter(1) },
    );
    await c.read('first');
    // One at a time: the later reads wait in the limiter while the first is answered.
    const waiting = Array.from({ length: 5 }, (_, i) => c.read(`late/${i}`).then(() => undefined, (err: unknown) => err as Error));
    const revoked = c.logout();
    const errors = await Promise.all(waiting);
    await revoked;
    const late = server.seen.filter((r) => r.url.includes('/late/'));
    // At most the one already on its way when logout began; none after the revoke.
    expect(late.length).toBeLessThanOrEqual(1);
    expect(server.seen.at(-1)).toMatchObject({ method: 'POST', url: '/v1/auth/token/revoke-self' });
    expect(errors.filter((e) => e !== undefined).map((e) => e.message)).toContain('ci: GET late/4: not sent: the run is ending and its login token is being revoked');
    c.close();
  });

  it('a failed login fails every request with one message naming the cluster, address and login, and logout sends nothing', async () => {
    server = await startServer((_req, res) => json(res, 400, { errors: [`role "deploy" could not be found; got ${JWT}`] }));
    const c = jwtClient(server.baseUrl);
    const [a, b] = await Promise.all([caught(() => c.read('x')), caught(() => listNames(c, 'y'))]);
    expect(a.message).toBe(
      `cannot log in to ci at ${server.baseUrl} with a jwt login as role "deploy" at auth/jwt with the JWT from environment variable CI_JOB_JWT (test): POST ${server.baseUrl}/auth/jwt/login: 400 Bad Request: role "deploy" could not be found; got (sensitive)`,
    );
    expect(b.message).toBe(a.message);
    const sent = server.seen.length;
    await c.logout();
    expect(server.seen.length).toBe(sent);
    c.close();
  });

  it('a given token is never revoked', async () => {
    server = await startServer((_req, res) => json(res, 200, { data: {} }));
    const c = client(server.baseUrl);
    await c.read('x');
    await c.logout();
    expect(server.seen.map((r) => r.url)).toEqual(['/v1/x']);
  });
});
