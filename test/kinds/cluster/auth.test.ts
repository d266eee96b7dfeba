import { describe, expect, test } from 'vitest';
import { describeAuth, type ClusterTarget } from '../../../src/core/cluster.js';
import { Diagnostics } from '../../../src/core/diagnostics.js';
import { clusterFromEnvironment } from '../../../src/kinds/cluster/index.js';
import { prepare } from '../../../src/validate/prepare.js';
import { makeTree, useTempTrees } from '../../support/temp-tree.js';

const tree = useTempTrees();
const HEAD = 'apiVersion: lockstep/v1\nkind: Cluster\nname: east\naddress: http://127.0.0.1:9/v1\n';
const ENV = { CI_JOB_JWT: 'jwt-canary-0123456789', ROLE_ID: 'role-id-canary-01', SECRET_ID: 'secret-id-canary-01', TOKEN: 'token-canary-0123' };

async function clusterDoc(body: string, opts: { allowPlaintextSecrets?: boolean } = {}) {
  const root = await tree({ 'c.yaml': HEAD + body });
  const prepared = await prepare([root], { allowPlaintextSecrets: opts.allowPlaintextSecrets ?? false, prune: false, requireClusters: true, env: ENV });
  return { target: prepared.clusters.get('east'), lines: prepared.diags.format().map((l) => l.split(`${root}/`).join('')), secrets: prepared.secretTexts };
}

describe('Cluster.auth', () => {
  test('jwt: role, the JWT a secret, mount jwt by default, the cluster namespace for the login', async () => {
    const { target, lines, secrets } = await clusterDoc('namespace: team-a\nauth:\n  method: jwt\n  role: ci\n  jwt: ${env:CI_JOB_JWT}\n');
    expect(lines).toEqual([]);
    expect(target!.auth).toMatchObject({ method: 'jwt', role: 'ci', mount: 'jwt', namespace: 'team-a' });
    expect(target!.auth.method === 'jwt' && target!.auth.jwt.reveal()).toBe(ENV.CI_JOB_JWT);
    expect(secrets).toContain(ENV.CI_JOB_JWT);
    expect(target!.authSource).toMatch(/^Cluster document .*c\.yaml:7:3$/);
  });

  test('approle: role_id and secret_id secrets, a mount and the root namespace given', async () => {
    const { target, lines, secrets } = await clusterDoc("namespace: team-a\nauth:\n  method: approle\n  roleId: ${env:ROLE_ID}\n  secretId: ${env:SECRET_ID}\n  mount: ci/approle\n  namespace: ''\n");
    expect(lines).toEqual([]);
    expect(target!.auth).toMatchObject({ method: 'approle', mount: 'ci/approle' });
    expect(target!.auth).not.toHaveProperty('namespace');
    expect([...secrets]).toEqual(expect.arrayContaining([ENV.ROLE_ID, ENV.SECRET_ID]));
    expect(describeAuth(target!)).toMatch(/^an approle login at auth\/ci\/approle with the role_id from environment variable ROLE_ID \(Cluster document .*c\.yaml:7:3\)$/);
  });

  test('token as auth.method token is today\'s token', async () => {
    const { target, lines } = await clusterDoc('auth:\n  method: token\n  token: ${env:TOKEN}\n');
    expect(lines).toEqual([]);
    expect(describeAuth(target!)).toMatch(/^the token from environment variable TOKEN \(Cluster document .*c\.yaml:6:3\)$/);
  });

  test('every problem located at once: plaintext credentials, missing fields, fields of another method, both token and auth', async () => {
    expect((await clusterDoc('auth:\n  method: jwt\n  role: ci\n  jwt: eyJhbGciOi.literal.jwt\n')).lines).toEqual([
      'c.yaml:8:8: error: auth.jwt is a secret and must be a ${env:...} or ${file:...} reference (or pass --allow-plaintext-secrets)',
    ]);
    expect((await clusterDoc('auth:\n  method: approle\n  roleId: ${env:ROLE_ID}\n  secretId: plain-secret\n')).lines).toEqual([
      'c.yaml:8:13: error: auth.secretId is a secret and must be a ${env:...} or ${file:...} reference (or pass --allow-plaintext-secrets)',
    ]);
    expect((await clusterDoc('auth:\n  method: jwt\n  jwt: ${env:CI_JOB_JWT}\n')).lines).toEqual(['c.yaml:6:3: error: missing required field "role" in auth']);
    expect((await clusterDoc('auth:\n  method: approle\n')).lines).toEqual([
      'c.yaml:6:3: error: missing required field "roleId" in auth',
      'c.yaml:6:3: error: missing required field "secretId" in auth',
    ]);
    expect((await clusterDoc('auth:\n  method: oidc\n')).lines).toEqual(['c.yaml:6:11: error: auth.method: must be one of token, jwt, approle']);
    expect((await clusterDoc('auth:\n  method: jwt\n  role: ci\n  jwt: ${env:CI_JOB_JWT}\n  secretId: ${env:SECRET_ID}\n  mount: a//b\n')).lines).toEqual([
      'c.yaml:9:3: error: auth.secretId: not a field of method jwt (its fields: role, jwt, mount, namespace)',
      'c.yaml:10:10: error: auth.mount: must not contain empty segments ("//")',
    ]);
    expect((await clusterDoc('token: ${env:TOKEN}\nauth:\n  method: token\n  token: ${env:TOKEN}\n')).lines).toEqual([
      'c.yaml:5:8: error: token: give either token or auth, not both (auth: {method: token, token: ...} is the same as token)',
    ]);
    expect((await clusterDoc('')).lines).toEqual(['c.yaml:1:1: error: missing required field "token"']);
    expect((await clusterDoc('auth:\n  method: jwt\n  role: ci\n  jwt: ${env:NOPE}\n')).lines).toEqual(['c.yaml:8:8: error: auth.jwt: environment variable "NOPE" is not set']);
  });
});

describe('the implicit cluster: SERVICE_* first, then VAULT_*; the login from SERVICE_AUTH_*', () => {
  async function resolve(env: NodeJS.ProcessEnv): Promise<{ target: ClusterTarget | undefined; lines: string[] }> {
    const diags = new Diagnostics();
    const catalogue = await clusterFromEnvironment({ env, requireClusters: true }, diags);
    return { target: catalogue.targets.get('default'), lines: diags.format() };
  }

  test('VAULT_ADDR, VAULT_TOKEN, VAULT_NAMESPACE, VAULT_CACERT are read when the SERVICE_* names are unset or empty', async () => {
    const { target, lines } = await resolve({ VAULT_ADDR: 'http://v:8200', VAULT_TOKEN: 'vt', VAULT_NAMESPACE: 'ns1/', SERVICE_TOKEN: '' });
    expect(lines).toEqual([]);
    expect(target).toMatchObject({ address: 'http://v:8200/v1', defaultNamespace: 'ns1', authSource: 'the implicit cluster from VAULT_ADDR' });
    expect(describeAuth(target!)).toBe('the token from environment variable VAULT_TOKEN (the implicit cluster from VAULT_ADDR)');
    expect((await resolve({ VAULT_ADDR: 'http://v:8200', VAULT_TOKEN: 'vt', VAULT_CACERT: '/nonexistent/ca.pem' })).lines).toEqual([
      'error: VAULT_CACERT: cannot read the CA file "/nonexistent/ca.pem"',
    ]);
  });

  test('SERVICE_* wins, name by name', async () => {
    const { target } = await resolve({ SERVICE_ADDR: 'http://s:1', VAULT_ADDR: 'http://v:2', VAULT_TOKEN: 'vt', SERVICE_NAMESPACE: 'a', VAULT_NAMESPACE: 'b' });
    expect(target).toMatchObject({ address: 'http://s:1/v1', defaultNamespace: 'a' });
    expect(target!.auth.method === 'token' && target!.auth.token.origin).toBe('env:VAULT_TOKEN');
    const both = await resolve({ SERVICE_ADDR: 'http://s:1', SERVICE_TOKEN: 'st', VAULT_TOKEN: 'vt' });
    expect(both.target!.auth.method === 'token' && both.target!.auth.token.reveal()).toBe('st');
  });

  test('SERVICE_AUTH_METHOD jwt: the JWT inline or from a file (trimmed), the mount and login namespace', async () => {
    const inline = await resolve({ SERVICE_ADDR: 'http://s:1', SERVICE_NAMESPACE: 'team', SERVICE_AUTH_METHOD: 'jwt', SERVICE_AUTH_ROLE: 'ci', SERVICE_AUTH_JWT: 'a.b.c\n' });
    expect(inline.lines).toEqual([]);
    expect(inline.target!.auth).toMatchObject({ method: 'jwt', role: 'ci', mount: 'jwt', namespace: 'team' });
    expect(inline.target!.auth.method === 'jwt' && inline.target!.auth.jwt.reveal()).toBe('a.b.c');
    const root = await makeTree({ 'token.jwt': 'x.y.z\n' });
    const fromFile = await resolve({
      SERVICE_ADDR: 'http://s:1',
      SERVICE_NAMESPACE: 'team',
      SERVICE_AUTH_METHOD: 'jwt',
      SERVICE_AUTH_ROLE: 'ci',
      SERVICE_AUTH_JWT_FILE: `${root}/token.jwt`,
      SERVICE_AUTH_MOUNT: '/gitlab/',
      SERVICE_AUTH_NAMESPACE: '/',
    });
    expect(fromFile.lines).toEqual([]);
    expect(fromFile.target!.auth).toEqual({ method: 'jwt', role: 'ci', mount: 'gitlab', jwt: expect.anything() });
    expect(fromFile.target!.auth.method === 'jwt' && [fromFile.target!.auth.jwt.reveal(), fromFile.target!.auth.jwt.origin]).toEqual(['x.y.z', `file:${root}/token.jwt`]);
  });

  test('SERVICE_AUTH_METHOD approle, and every missing or wrong setting at once', async () => {
    const ok = await resolve({ SERVICE_ADDR: 'http://s:1', SERVICE_AUTH_METHOD: 'approle', SERVICE_AUTH_ROLE_ID: 'r', SERVICE_AUTH_SECRET_ID: 's' });
    expect(ok.target!.auth).toMatchObject({ method: 'approle', mount: 'approle' });
    expect((await resolve({ SERVICE_ADDR: 'http://s:1', SERVICE_AUTH_METHOD: 'approle' })).lines).toEqual([
      'error: SERVICE_AUTH_ROLE_ID is not set (the role_id of SERVICE_AUTH_METHOD=approle)',
      'error: SERVICE_AUTH_SECRET_ID is not set (the secret_id of SERVICE_AUTH_METHOD=approle)',
    ]);
    expect((await resolve({ SERVICE_ADDR: 'http://s:1', SERVICE_AUTH_METHOD: 'jwt', SERVICE_AUTH_JWT: 'a', SERVICE_AUTH_JWT_FILE: 'f' })).lines).toEqual([
      'error: SERVICE_AUTH_ROLE is not set (the role of SERVICE_AUTH_METHOD=jwt)',
      'error: SERVICE_AUTH_JWT and SERVICE_AUTH_JWT_FILE are both set: set one',
    ]);
    expect((await resolve({ SERVICE_ADDR: 'http://s:1', SERVICE_AUTH_METHOD: 'kerberos' })).lines).toEqual(['error: SERVICE_AUTH_METHOD: must be one of token, jwt, approle']);
  });
});
