import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { recordIssuedTokens, startAnswerProxy, type AnswerProxy } from '../support/answer-proxy.js';
import { outputRecorder } from '../support/canaries.js';
import { runCli } from '../support/cli.js';
import { writeManifestFolder } from '../support/e2e.js';
import { ciClaims, jwtIssuer } from '../support/jwt.js';
import { startTestServer, type TestCluster } from '../support/server.js';

// CI login against `serve`: the JWT method with a JWKS served from loopback, the login made once
// per run and revoked at its end, and a refusal that says which token was refused and what it may do.
// (serve has no ACL policies: a login's token may look itself up and revoke itself, nothing more.)
const issuer = jwtIssuer('ci-key');
let cluster: TestCluster;
let jwks: Server;
let proxy: AnswerProxy;
let dir: string;
const loginTokens: string[] = [];

beforeAll(async () => {
  cluster = await startTestServer();
  jwks = createServer((_req, res) => res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(issuer.jwks)));
  await new Promise<void>((resolve) => jwks.listen(0, '127.0.0.1', resolve));
  const jwksUrl = `http://127.0.0.1:${(jwks.address() as AddressInfo).port}/jwks`;
  for (const [p, body] of [
    ['sys/auth/gitlab', { type: 'jwt' }],
    ['auth/gitlab/config', { jwks_url: jwksUrl }],
    ['auth/gitlab/role/ci', { role_type: 'jwt', bound_audiences: 'lockstep', user_claim: 'sub', token_policies: 'lockstep', token_ttl: '15m' }],
  ] as const) {
    const res = await cluster.raw('POST', p, body);
    expect(res.status, JSON.stringify(res.body)).toBeLessThan(300);
  }
  proxy = await startAnswerProxy(cluster.baseUrl);
  recordIssuedTokens(proxy, ['POST auth/gitlab/login'], loginTokens);
  dir = await mkdtemp(path.join(tmpdir(), 'lockstep-ci-login-serve-'));
});

afterAll(async () => {
  await proxy.close();
  await new Promise((resolve) => jwks.close(resolve));
  await cluster.server.close();
  await rm(dir, { recursive: true, force: true });
});

describe('CI login against serve', () => {
  it('a refused request names the cluster, the address, the login and the policies and expiry lookup-self gives; the token is revoked after', async () => {
    const recorder = outputRecorder();
    const jwt = issuer.sign(ciClaims());
    const manifests = await writeManifestFolder(path.join(dir, 'm'), { 'ldap.yaml': 'apiVersion: lockstep/v1\nkind: LdapAuth\nconfig: { url: "ldap://127.0.0.1:1" }\n' });
    const env = { SERVICE_ADDR: proxy.baseUrl, SERVICE_TOKEN: '', SERVICE_AUTH_METHOD: 'jwt', SERVICE_AUTH_ROLE: 'ci', SERVICE_AUTH_MOUNT: 'gitlab', SERVICE_AUTH_JWT: jwt };
    proxy.requests.length = 0;
    const run = recorder.record(await runCli(['plan', manifests], { env }));
    expect(run.code).toBe(1);
    expect(run.stderr).toContain('403 Forbidden: permission denied');
    expect(run.stderr).toContain(
      `(cluster default at ${proxy.baseUrl}, token: a jwt login as role "ci" at auth/gitlab with the JWT from environment variable SERVICE_AUTH_JWT (the implicit cluster from SERVICE_ADDR); its policies: default, lockstep; expires 20`,
    );
    // One login, one lookup-self for the message, one revocation at the end.
    expect(proxy.requests.filter((r) => r.startsWith('POST auth/gitlab/login'))).toHaveLength(1);
    expect(proxy.requests.filter((r) => r.includes('auth/token/lookup-self'))).toHaveLength(1);
    expect(proxy.requests.at(-1)).toBe('POST auth/token/revoke-self');
    expect(loginTokens).toHaveLength(1);
    const lookup = await cluster.raw('POST', 'auth/token/lookup', { token: loginTokens[0] });
    expect(lookup.status).toBe(403);
    recorder.expectNoCanaries([jwt, loginTokens[0]!], 100);
  });

  it('a JWT for another audience: exit 1, naming the cluster, address and login; nothing sent after the login', async () => {
    const jwt = issuer.sign(ciClaims({ aud: 'someone-else' }));
    const manifests = await writeManifestFolder(path.join(dir, 'm2'), { 'ldap.yaml': 'apiVersion: lockstep/v1\nkind: LdapAuth\nconfig: { url: "ldap://127.0.0.1:1" }\n' });
    proxy.requests.length = 0;
    const run = await runCli(['apply', manifests, '--auto-approve'], {
      env: { SERVICE_ADDR: proxy.baseUrl, SERVICE_AUTH_METHOD: 'jwt', SERVICE_AUTH_ROLE: 'ci', SERVICE_AUTH_MOUNT: 'gitlab', SERVICE_AUTH_JWT: jwt },
    });
    expect(run.code).toBe(1);
    expect(run.stderr).toContain(`cannot log in to default at ${proxy.baseUrl} with a jwt login as role "ci" at auth/gitlab`);
    expect(run.stderr).toContain('invalid audience (aud) claim');
    expect(run.stderr).not.toContain(jwt);
    expect(proxy.requests.filter((r) => !r.startsWith('POST auth/gitlab/login'))).toEqual([]);
  });
});
