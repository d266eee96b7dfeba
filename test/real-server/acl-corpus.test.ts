import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningServer } from '../../src/server/index.js';
import { startTestServer } from '../server/helpers.js';
import { useRealServer } from '../support/real-server.js';

// One corpus of policies × requests sent to `serve` and to the real server: the same allow or
// deny (403 or not) on both. What decides is vault/acl.go (AllowOperation,
// CheckAllowedFromNonExactPaths), vault/policy.go (rules) and vault/request_handling.go (sudo
// on root-protected paths, vault/logical_system.go PathsSpecial Root; a write is `create` or
// `update` by the route's existence check, CheckToken's RouteExistenceCheck: AppRole's and JWT's
// path_role.go have one on role/<name>, LDAP's path_groups.go has none).
const real = useRealServer();
let serve: RunningServer & { logs: string[] };
beforeAll(async () => {
  serve = await startTestServer();
  for (const target of ['serve', 'real'] as const) {
    for (const [p, body] of [
      ['sys/auth/corpus-approle', { type: 'approle' }],
      ['auth/corpus-approle/role/existing', {}],
      ['sys/auth/corpus-jwt', { type: 'jwt' }],
      ['auth/corpus-jwt/role/existing', JWT_ROLE],
      ['sys/auth/corpus-ldap', { type: 'ldap' }],
      ['auth/corpus-ldap/config', { url: 'ldap://127.0.0.1:1' }],
      ['auth/corpus-ldap/groups/existing', { policies: 'a' }],
    ] as const) {
      expect(await asRoot(target, p, body), `${target} ${p}`).toBeLessThan(300);
    }
  }
});
afterAll(() => serve.close());

const JWT_ROLE = { role_type: 'jwt', user_claim: 'sub', bound_audiences: ['x'] };
const WRITABLE = ['auth/corpus-approle/role/*', 'auth/corpus-jwt/role/*', 'auth/corpus-ldap/groups/*'];
const only = (capability: string): string => WRITABLE.map((p) => `path "${p}" { capabilities = ["${capability}"] }`).join('\n');

const POLICIES: Record<string, string> = {
  exact: 'path "sys/mounts" { capabilities = ["read"] }',
  glob: 'path "sys/policies/acl/*" { capabilities = ["read", "list"] }\npath "sys/policies/acl" { capabilities = ["list"] }',
  deny: 'path "sys/*" { capabilities = ["read", "list"] }\npath "sys/mounts" { capabilities = ["deny"] }',
  plus: 'path "sys/policies/+/team-*" { capabilities = ["read", "update", "create"] }',
  legacy: 'path "sys/auth" { policy = "read" }\npath "sys/policies/*" { policy = "write" }',
  // A LIST's path gets its trailing slash before the ACL sees it (http/logical.go): the glob covers LIST sys/policies/acl.
  listglob: 'path "sys/policies/acl/*" { capabilities = ["list"] }',
  nosudo: 'path "sys/auth/*" { capabilities = ["create", "update", "read", "delete"] }',
  sudo: 'path "sys/auth/*" { capabilities = ["create", "update", "read", "delete", "sudo"] }',
  // create writes what does not exist yet, update what does, where the route has an existence check.
  createonly: only('create'),
  updateonly: only('update'),
};

type Request = [method: 'GET' | 'LIST' | 'POST' | 'DELETE', path: string, body?: unknown];
const REQUESTS = (row: string): Request[] => [
  ['GET', 'sys/mounts'],
  ['GET', 'sys/auth'],
  ['LIST', 'sys/policies/acl'],
  ['GET', 'sys/policies/acl/default'],
  ['POST', `sys/policies/acl/team-${row}`, { policy: 'path "x" { capabilities = ["read"] }' }],
  ['GET', `sys/policies/acl/team-${row}`],
  ['POST', `sys/auth/m-${row}`, { type: 'approle' }],
  ['GET', 'auth/token/lookup-self'],
  ['POST', 'sys/capabilities-self', { path: 'sys/mounts' }],
  ['GET', 'secret/data/nothing'],
  ['POST', 'auth/corpus-approle/role/existing', { token_ttl: '1h' }],
  ['POST', `auth/corpus-approle/role/new-${row}`, {}],
  ['POST', 'auth/corpus-jwt/role/existing', JWT_ROLE],
  ['POST', `auth/corpus-jwt/role/new-${row}`, JWT_ROLE],
  ['POST', 'auth/corpus-ldap/groups/existing', { policies: 'b' }],
  ['POST', `auth/corpus-ldap/groups/new-${row}`, { policies: 'b' }],
];

async function asRoot(target: 'serve' | 'real', path: string, body: unknown): Promise<number> {
  return send(target, target === 'serve' ? serve.clusters[0]!.rootToken : real().token, ['POST', path, body]);
}

async function send(target: 'serve' | 'real', token: string, [method, path, body]: Request): Promise<number> {
  const base = target === 'serve' ? serve.clusters[0]!.baseUrl : `${real().addr}/v1`;
  const res = await fetch(`${base}/${path}${method === 'LIST' ? '?list=true' : ''}`, {
    method: method === 'LIST' ? 'GET' : method,
    headers: { 'X-Vault-Token': token, 'Content-Type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  await res.arrayBuffer();
  return res.status;
}

async function setUp(target: 'serve' | 'real', name: string, policy: string): Promise<string> {
  const rootToken = target === 'serve' ? serve.clusters[0]!.rootToken : real().token;
  const base = target === 'serve' ? serve.clusters[0]!.baseUrl : `${real().addr}/v1`;
  const headers = { 'X-Vault-Token': rootToken, 'Content-Type': 'application/json' };
  const put = await fetch(`${base}/sys/policies/acl/${name}`, { method: 'POST', headers, body: JSON.stringify({ policy }) });
  expect(put.status, `${target} refused policy ${name}`).toBe(204);
  const created = await fetch(`${base}/auth/token/create`, { method: 'POST', headers, body: JSON.stringify({ policies: [name] }) });
  return ((await created.json()) as { auth: { client_token: string } }).auth.client_token;
}

describe('ACL corpus: serve and the real server allow and deny alike', () => {
  it.each(Object.entries(POLICIES))('policy %s', async (name, policy) => {
    const tokens = { serve: await setUp('serve', name, policy), real: await setUp('real', name, policy) };
    const outcomes: string[] = [];
    for (const request of REQUESTS(name)) {
      const [a, b] = [await send('serve', tokens.serve, request), await send('real', tokens.real, request)];
      outcomes.push(`${request[0]} ${request[1]}: serve ${a === 403 ? 'deny' : 'allow'}, real ${b === 403 ? 'deny' : 'allow'}`);
    }
    const differing = outcomes.filter((line) => /serve (\w+), real (?!\1)/.test(line));
    expect(differing).toEqual([]);
    if (name === 'createonly' || name === 'updateonly') {
      const [created, updated] = name === 'createonly' ? ['allow', 'deny'] : ['deny', 'allow'];
      const writes = outcomes.filter((l) => l.startsWith('POST auth/corpus-'));
      expect(writes).toEqual([
        `POST auth/corpus-approle/role/existing: serve ${updated}, real ${updated}`,
        `POST auth/corpus-approle/role/new-${name}: serve ${created}, real ${created}`,
        `POST auth/corpus-jwt/role/existing: serve ${updated}, real ${updated}`,
        `POST auth/corpus-jwt/role/new-${name}: serve ${created}, real ${created}`,
        // No existence check: a new group is an update too.
        `POST auth/corpus-ldap/groups/existing: serve ${updated}, real ${updated}`,
        `POST auth/corpus-ldap/groups/new-${name}: serve ${updated}, real ${updated}`,
      ]);
    }
    // every row has both answers (default allows lookup-self; nothing allows secret/), so it tests something
    expect([outcomes.some((l) => l.includes('serve allow')), outcomes.some((l) => l.includes('serve deny'))]).toEqual([true, true]);
  });
});
