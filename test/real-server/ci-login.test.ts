import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { recordIssuedTokens, startAnswerProxy, type AnswerProxy } from '../support/answer-proxy.js';
import { outputRecorder } from '../support/canaries.js';
import { runCli } from '../support/cli.js';
import { expectNoChanges, writeManifestFolder } from '../support/e2e.js';
import { ciClaims, jwtIssuer } from '../support/jwt.js';
import { loginSequence, type Step } from '../support/login-sequence.js';
import { useRealServer } from '../support/real-server.js';
import { startTestServer, type TestCluster } from '../support/server.js';

// CI login (issue 24): lockstep logs in with the JWT and AppRole methods the real server has
// built in, and the emulator answers those methods as the real server does.
const server = useRealServer();
const issuer = jwtIssuer();

/**
 * Where OpenBao's answers differ from Vault's source (hashicorp/vault-plugin-auth-jwt
 * path_config.go, hashicorp/cap v0.13.0 jwt/keyset.go), which the emulator follows: OpenBao
 * added `provider_config` to the config's choices and reads EdDSA keys from PEM.
 */
const OPENBAO_TEXTS: Record<string, string> = {
  "exactly one of 'jwt_validation_pubkeys', 'jwks_url', 'jwks_pairs', 'oidc_discovery_url', or 'provider_config' must be set":
    "exactly one of 'jwt_validation_pubkeys', 'jwks_url', 'jwks_pairs' or 'oidc_discovery_url' must be set",
  'error parsing public key: data does not contain any valid public keys': 'error parsing public key: data does not contain any valid RSA or ECDSA public keys',
};

function asVault(steps: Step[]): Step[] {
  return steps.map(([method, p, status, answer]) => [method, p, status, Array.isArray(answer) ? answer.map((e) => OPENBAO_TEXTS[String(e)] ?? e) : answer]);
}

describe('the JWT and AppRole methods: the emulator answers as the real server', () => {
  let emulator: TestCluster;
  beforeAll(async () => {
    emulator = await startTestServer('root-compare');
  });
  afterAll(async () => {
    await emulator.server.close();
  });

  // path_login.go, path_role.go, path_config.go and claims.go of hashicorp/vault-plugin-auth-jwt;
  // builtin/credential/approle/path_login.go and path_role.go of hashicorp/vault; vault/request_handling.go.
  it('statuses, errors, auth blocks and token facts agree step by step', async () => {
    const stranger = jwtIssuer('stranger');
    const real = asVault(await loginSequence(server().addr, server().token, issuer, stranger));
    const emulated = await loginSequence(emulator.baseUrl.replace(/\/v1$/, ''), emulator.token, issuer, stranger);
    expect(emulated.map((s) => s.slice(0, 3))).toEqual(real.map((s) => s.slice(0, 3)));
    for (const [i, step] of emulated.entries()) expect(step, `step ${i}: ${step[0]} ${step[1]}`).toEqual(real[i]);
  });
});

describe('plan and apply through a CI login against the real server', () => {
  let proxy: AnswerProxy;
  let dir: string;
  const loginTokens: string[] = [];
  const env = (extra: Record<string, string>) => ({ SERVICE_ADDR: '', SERVICE_TOKEN: '', VAULT_ADDR: '', VAULT_TOKEN: '', ...extra });

  beforeAll(async () => {
    const s = server();
    const admin = 'path "*" { capabilities = ["create", "read", "update", "delete", "list", "sudo"] }';
    // The comparison above left its own methods at these paths.
    for (const method of ['jwt', 'approle']) await s.raw('DELETE', `sys/auth/${method}`);
    for (const [p, body] of [
      ['sys/policies/acl/lockstep', { policy: admin }],
      ['sys/auth/jwt', { type: 'jwt' }],
      ['auth/jwt/config', { jwt_validation_pubkeys: [issuer.publicKeyPem], bound_issuer: 'https://token.actions.example.com' }],
      ['auth/jwt/role/ci', { role_type: 'jwt', bound_audiences: ['lockstep'], bound_claims: { repository: 'acme/infra' }, user_claim: 'sub', token_policies: ['lockstep'], token_ttl: '10m' }],
      ['sys/auth/approle', { type: 'approle' }],
      ['auth/approle/role/deploy', { token_policies: 'lockstep', token_ttl: '10m' }],
    ] as const) {
      const res = await s.raw('POST', p, body);
      expect(res.status, `${p}: ${res.text}`).toBeLessThan(300);
    }
    // The login answers pass through a proxy that notes each login token, to prove it is revoked
    // after the run and printed nowhere.
    proxy = await startAnswerProxy(`${s.addr}/v1`);
    recordIssuedTokens(proxy, ['POST auth/jwt/login', 'POST auth/approle/login'], loginTokens);
    dir = await mkdtemp(path.join(tmpdir(), 'lockstep-ci-login-'));
  });
  afterAll(async () => {
    await proxy.close();
    await rm(dir, { recursive: true, force: true });
  });

  const ldap = (policies: string) => `apiVersion: lockstep/v1
kind: LdapAuth
cluster: ci
mount: ci-ldap
config:
  url: ldap://127.0.0.1:1
  userdn: ou=people,dc=example,dc=com
  userattr: uid
groups:
  admins: { policies: [${policies}] }
`;
  const cluster = (auth: string) => `apiVersion: lockstep/v1
kind: Cluster
name: ci
address: ${proxy.baseUrl}
auth:
${auth}`;

  async function expectRevoked(tokens: string[]): Promise<void> {
    expect(tokens.length).toBeGreaterThan(0);
    for (const token of tokens) {
      const lookup = await server().raw('POST', 'auth/token/lookup', { token });
      expect(lookup.status, 'the login token outlived the run').toBe(403);
    }
  }

  it('with a JWT: plan, apply, a clean plan; every login token revoked; no credential printed', async () => {
    const recorder = outputRecorder();
    const jwt = issuer.sign(ciClaims());
    const manifests = await writeManifestFolder(path.join(dir, 'jwt'), {
      'cluster.yaml': cluster('  method: jwt\n  role: ci\n  jwt: ${env:CI_JOB_JWT}\n'),
      'ldap.yaml': ldap('admin'),
    });
    loginTokens.length = 0;
    const cli = async (args: string[]) => recorder.record(await runCli(args, { env: env({ CI_JOB_JWT: jwt }) }));
    const plan = await cli(['plan', manifests, '--out', path.join(dir, 'jwt.plan')]);
    expect(plan.code, plan.stderr).toBe(0);
    expect(plan.stdout).toContain('ci:auth/ci-ldap');
    const apply = await cli(['apply', path.join(dir, 'jwt.plan')]);
    expect(apply.code, apply.stderr).toBe(0);
    await expectNoChanges(cli, manifests);
    const { readFile } = await import('node:fs/promises');
    recorder.add(await readFile(path.join(dir, 'jwt.plan'), 'utf8'));
    expect((await server().raw('GET', 'auth/ci-ldap/groups/admins')).body).toMatchObject({ data: { policies: ['admin'] } });
    // One login per run: plan, apply, plan.
    expect(loginTokens).toHaveLength(3);
    await expectRevoked(loginTokens);
    recorder.expectNoCanaries([jwt, ...loginTokens], 200);
  });

  it('with AppRole from the environment (SERVICE_AUTH_*, VAULT_ADDR): apply and a clean plan; tokens revoked', async () => {
    const recorder = outputRecorder();
    const roleId = ((await server().raw('GET', 'auth/approle/role/deploy/role-id')).body as { data: { role_id: string } }).data.role_id;
    const secretId = ((await server().raw('POST', 'auth/approle/role/deploy/secret-id', {})).body as { data: { secret_id: string } }).data.secret_id;
    const manifests = await writeManifestFolder(path.join(dir, 'approle'), { 'ldap.yaml': ldap('admin, dev').replace('cluster: ci\n', '') });
    loginTokens.length = 0;
    const loginEnv = env({ VAULT_ADDR: proxy.baseUrl.replace(/\/v1$/, ''), SERVICE_AUTH_METHOD: 'approle', SERVICE_AUTH_ROLE_ID: roleId, SERVICE_AUTH_SECRET_ID: secretId });
    const cli = async (args: string[]) => recorder.record(await runCli(args, { env: loginEnv }));
    const apply = await cli(['apply', manifests, '--auto-approve']);
    expect(apply.code, apply.stderr).toBe(0);
    await expectNoChanges(cli, manifests);
    expect(loginTokens).toHaveLength(2);
    await expectRevoked(loginTokens);
    recorder.expectNoCanaries([roleId, secretId, ...loginTokens], 100);
  });

  it('a wrong role or an expired JWT: exit 1 naming cluster, address and login; nothing written', async () => {
    const recorder = outputRecorder();
    const now = Math.floor(Date.now() / 1000);
    const expired = issuer.sign(ciClaims({ iat: now - 7200, nbf: now - 7200, exp: now - 3600 }));
    const valid = issuer.sign(ciClaims());
    const mounts = async () => Object.keys(((await server().raw('GET', 'sys/auth')).body as { data: object }).data).sort();
    const before = await mounts();
    for (const [role, jwt, why] of [
      ['deployer', valid, 'role "deployer" could not be found'],
      ['ci', expired, 'error validating token: invalid expiration time (exp) claim: token is expired'],
    ] as const) {
      const manifests = await writeManifestFolder(path.join(dir, `bad-${role}`), {
        'cluster.yaml': cluster(`  method: jwt\n  role: ${role}\n  jwt: \${env:CI_JOB_JWT}\n`),
        'ldap.yaml': ldap('admin').replace('ci-ldap', `never-${role}`),
      });
      const run = recorder.record(await runCli(['apply', manifests, '--auto-approve'], { env: env({ CI_JOB_JWT: jwt }) }));
      expect(run.code).toBe(1);
      expect(run.stderr).toContain(`cannot log in to ci at ${proxy.baseUrl} with a jwt login as role "${role}" at auth/jwt`);
      expect(run.stderr).toContain('Cluster document');
      expect(run.stderr).toContain(why);
      expect(run.stderr).not.toContain('    at ');
      recorder.add(JSON.stringify(await readdir(manifests)));
      recorder.expectNoCanaries([jwt], 50);
    }
    expect(await mounts()).toEqual(before);
  });
});
