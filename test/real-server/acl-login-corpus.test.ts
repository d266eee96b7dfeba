import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningServer } from '../../src/server/index.js';
import { startTestServer } from '../server/helpers.js';
import { ciClaims, jwtIssuer } from '../support/jwt.js';
import { CREW, planetExpressLdif } from '../support/planet-express.js';
import { useRealServer } from '../support/real-server.js';
import { ldapSettingsFor, startSlapd, type Slapd } from '../support/slapd.js';

// A token from each login method can do exactly what its policies allow: log in with LDAP
// (slapd), JWT and AppRole on serve and on the real server, check the token carries the
// policies its mapping names (builtin/credential/ldap/backend.go Login, vault-plugin-auth-jwt
// path_login.go, builtin/credential/approle/path_login.go; the token fields of
// sdk/helper/tokenutil), then send one corpus of requests with it and with a token made by
// auth/token/create holding the same policies: the four allow/deny columns agree
// (vault/request_handling.go CheckToken, vault/acl.go).
const real = useRealServer();
const issuer = jwtIssuer();
let serve: RunningServer & { logs: string[] };
let slapd: Slapd;

type Target = 'serve' | 'real';

beforeAll(async () => {
  [serve, slapd] = await Promise.all([startTestServer(), startSlapd({ ldif: planetExpressLdif() })]);
  for (const target of ['serve', 'real'] as const) {
    for (const [p, body] of setUp()) {
      const res = await call(target, rootToken(target), 'POST', p, body);
      expect(res.status, `${target} ${p}: ${JSON.stringify(res.body)}`).toBeLessThan(300);
    }
  }
}, 60_000);
afterAll(async () => {
  await Promise.all([serve?.close(), slapd?.stop()]);
});

const POLICIES: Record<string, string> = {
  base: 'path "sys/auth" { capabilities = ["read"] }',
  'ldap-crew': 'path "sys/mounts" { capabilities = ["read"] }\npath "auth/logins-ldap/groups/*" { capabilities = ["update"] }',
  'ldap-fry': 'path "sys/policies/acl/*" { capabilities = ["read"] }\npath "sys/mounts" { capabilities = ["deny"] }',
  'jwt-ci': 'path "auth/logins-approle/role/*" { capabilities = ["create", "read"] }',
  'approle-deploy': 'path "auth/logins-approle/role/*" { capabilities = ["update"] }\npath "sys/policies/acl" { capabilities = ["list"] }',
};

function setUp(): [string, unknown][] {
  return [
    ...Object.entries(POLICIES).map(([name, policy]): [string, unknown] => [`sys/policies/acl/${name}`, { policy }]),
    ['sys/auth/logins-ldap', { type: 'ldap' }],
    ['auth/logins-ldap/config', { ...ldapSettingsFor(slapd), token_policies: 'base' }],
    ['auth/logins-ldap/groups/crew', { policies: 'ldap-crew' }],
    ['auth/logins-ldap/users/fry', { policies: 'ldap-fry' }],
    ['sys/auth/logins-jwt', { type: 'jwt' }],
    ['auth/logins-jwt/config', { jwt_validation_pubkeys: [issuer.publicKeyPem], bound_issuer: 'https://token.actions.example.com' }],
    ['auth/logins-jwt/role/ci', { role_type: 'jwt', bound_audiences: ['lockstep'], user_claim: 'sub', token_policies: ['jwt-ci'] }],
    ['sys/auth/logins-approle', { type: 'approle' }],
    ['auth/logins-approle/role/deploy', { token_policies: 'approle-deploy' }],
    ['auth/logins-approle/role/existing', {}],
  ];
}

type Method = 'GET' | 'LIST' | 'POST';

const rootToken = (target: Target): string => (target === 'serve' ? serve.clusters[0]!.rootToken : real().token);

async function call(target: Target, token: string, method: Method, path: string, body?: unknown): Promise<{ status: number; body: any }> {
  const base = target === 'serve' ? serve.clusters[0]!.baseUrl : `${real().addr}/v1`;
  const res = await fetch(`${base}/${path}${method === 'LIST' ? '?list=true' : ''}`, {
    method: method === 'LIST' ? 'GET' : method,
    headers: { 'X-Vault-Token': token, 'Content-Type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  return { status: res.status, body: text === '' ? undefined : (JSON.parse(text) as unknown) };
}

/** Logs in with one method; the answer's token and policies. */
type Login = (target: Target) => Promise<{ token: string; policies: string[] }>;

const fromAuth = (res: { status: number; body: any }): { token: string; policies: string[] } => {
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return { token: res.body.auth.client_token as string, policies: [...(res.body.auth.policies as string[])].sort() };
};

const ldapLogin =
  (user: { uid: string; password: string }): Login =>
  async (target) =>
    fromAuth(await call(target, '', 'POST', `auth/logins-ldap/login/${user.uid}`, { password: user.password }));

const LOGINS: [name: string, login: Login, policies: string[]][] = [
  ['ldap fry (group crew, user mapping)', ldapLogin(CREW.fry), ['base', 'default', 'ldap-crew', 'ldap-fry']],
  ['ldap leela (crew; Management unmapped)', ldapLogin(CREW.leela), ['base', 'default', 'ldap-crew']],
  ['ldap amy (no mapping: token_policies only)', ldapLogin(CREW.amy), ['base', 'default']],
  [
    'jwt role ci',
    async (target) => fromAuth(await call(target, '', 'POST', 'auth/logins-jwt/login', { role: 'ci', jwt: issuer.sign(ciClaims()) })),
    ['default', 'jwt-ci'],
  ],
  [
    'approle role deploy',
    async (target) => {
      const root = rootToken(target);
      const roleId = (await call(target, root, 'GET', 'auth/logins-approle/role/deploy/role-id')).body.data.role_id as string;
      const secretId = (await call(target, root, 'POST', 'auth/logins-approle/role/deploy/secret-id', {})).body.data.secret_id as string;
      return fromAuth(await call(target, '', 'POST', 'auth/logins-approle/login', { role_id: roleId, secret_id: secretId }));
    },
    ['approle-deploy', 'default'],
  ],
];

/** The requests each token makes; `tag` keeps each run's new objects new. */
const REQUESTS = (tag: string): [Method, string, unknown?][] => [
  ['GET', 'sys/mounts'],
  ['GET', 'sys/auth'],
  ['LIST', 'sys/policies/acl'],
  ['GET', 'sys/policies/acl/base'],
  ['GET', 'auth/token/lookup-self'],
  ['POST', 'sys/capabilities-self', { path: 'sys/mounts' }],
  ['GET', 'secret/data/nothing'],
  ['GET', 'auth/logins-approle/role/existing'],
  ['POST', 'auth/logins-approle/role/existing', { token_ttl: '1h' }],
  ['POST', `auth/logins-approle/role/new-${tag}`, {}],
  ['POST', `auth/logins-ldap/groups/new-${tag}`, { policies: 'x' }],
  ['POST', 'sys/policies/acl/base', { policy: POLICIES['base'] }],
];

async function outcomes(target: Target, token: string, tag: string): Promise<string[]> {
  const lines: string[] = [];
  for (const [method, path, body] of REQUESTS(tag)) {
    const { status } = await call(target, token, method, path, body);
    lines.push(`${method} ${path.replace(tag, '<new>')}: ${status === 403 ? 'deny' : 'allow'}`);
  }
  return lines;
}

describe("a login's token can do exactly what its mapped policies allow, on serve as on the real server", () => {
  it.each(LOGINS.map(([name, login, policies], i) => [name, i, login, policies] as const))('%s', async (_name, i, login, policies) => {
    const columns: Record<string, string[]> = {};
    for (const target of ['serve', 'real'] as const) {
      const issued = await login(target);
      expect(issued.policies, `${target}: the token's policies`).toEqual(policies);
      const made = await call(target, rootToken(target), 'POST', 'auth/token/create', { policies: issued.policies });
      columns[`${target} login`] = await outcomes(target, issued.token, `login-${i}`);
      columns[`${target} token/create`] = await outcomes(target, made.body.auth.client_token as string, `made-${i}`);
    }
    const reference = columns['real token/create']!;
    for (const [column, lines] of Object.entries(columns)) expect(lines, column).toEqual(reference);
    expect([reference.some((l) => l.endsWith('allow')), reference.some((l) => l.endsWith('deny'))]).toEqual([true, true]);
  });
});
