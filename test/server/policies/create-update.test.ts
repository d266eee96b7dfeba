import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningServer } from '../../../src/server/index.js';
import { apiClient, createNamespaces, enableLdap, startTestServer, type ApiClient } from '../helpers.js';

// A write is checked as `create` or `update` by asking the route whether its object exists
// (vault/request_handling.go CheckToken → router.RouteExistenceCheck → sdk/framework/backend.go
// HandleExistenceCheck). The routes serve has with an existence check:
// builtin/credential/approle/path_role.go and vault-plugin-auth-jwt path_role.go
// (pathRoleExistenceCheck on role/<name>). Every other route has none and is `update`, as
// builtin/credential/ldap/path_groups.go, path_users.go and vault/logical_system_paths.go
// (policies/acl/<name>) have none.

let server: RunningServer & { logs: string[] };
let root: ApiClient;

const CREATE_ONLY = 'create-only';
const UPDATE_ONLY = 'update-only';

beforeAll(async () => {
  server = await startTestServer();
  root = apiClient(server.clusters[0]!);
  await createNamespaces(server.clusters[0]!, 'team-a');
  for (const [prefix, ns] of [['', undefined], ['team-a/', 'team-a']] as const) {
    const api = apiClient(server.clusters[0]!, undefined, { namespace: ns });
    for (const [p, body] of [
      ['sys/auth/approle', { type: 'approle' }],
      ['sys/auth/jwt', { type: 'jwt' }],
      ['auth/approle/role/existing', {}],
      ['auth/jwt/role/existing', { role_type: 'jwt', user_claim: 'sub', bound_audiences: ['x'] }],
      [`sys/policies/acl/${CREATE_ONLY}`, { policy: policyText('create') }],
      [`sys/policies/acl/${UPDATE_ONLY}`, { policy: policyText('update') }],
    ] as const) {
      expect((await api.post(p, body)).status, `${prefix}${p}`).toBeLessThan(300);
    }
  }
  await enableLdap(root);
  expect((await root.post('auth/ldap/config', { url: 'ldap://127.0.0.1:1' })).status).toBe(204);
  expect((await root.post('auth/ldap/groups/existing', { policies: 'a' })).status).toBe(204);
});
afterAll(() => server.close());

function policyText(capability: string): string {
  return ['auth/approle/role/*', 'auth/jwt/role/*', 'auth/ldap/groups/*', 'sys/policies/acl/team-*']
    .map((p) => `path "${p}" { capabilities = ["${capability}"] }`)
    .join('\n');
}

async function tokenWith(policy: string, namespace?: string): Promise<ApiClient> {
  const api = apiClient(server.clusters[0]!, undefined, { namespace });
  const created = await api.post('auth/token/create', { policies: [policy] });
  expect(created.status).toBe(200);
  return apiClient(server.clusters[0]!, created.body.auth.client_token as string, { namespace });
}

const JWT_ROLE = { role_type: 'jwt', user_claim: 'sub', bound_audiences: ['x'] };

describe('create or update: the existence check decides which capability a write needs', () => {
  it('an AppRole role: create for a new one, update for one that exists (names lower-cased, as roleEntry)', async () => {
    const creator = await tokenWith(CREATE_ONLY);
    const updater = await tokenWith(UPDATE_ONLY);
    expect((await updater.post('auth/approle/role/fresh', {})).status).toBe(403);
    expect((await creator.post('auth/approle/role/fresh', {})).status).toBe(204);
    expect((await creator.post('auth/approle/role/fresh', {})).status).toBe(403);
    expect((await creator.post('auth/approle/role/EXISTING', {})).status).toBe(403);
    expect((await updater.post('auth/approle/role/Existing', { token_ttl: '1h' })).status).toBe(204);
  });

  it('a JWT role, the same', async () => {
    const creator = await tokenWith(CREATE_ONLY);
    const updater = await tokenWith(UPDATE_ONLY);
    expect((await updater.post('auth/jwt/role/fresh', JWT_ROLE)).status).toBe(403);
    expect((await creator.post('auth/jwt/role/fresh', JWT_ROLE)).status).toBe(204);
    expect((await creator.post('auth/jwt/role/existing', JWT_ROLE)).status).toBe(403);
    expect((await updater.post('auth/jwt/role/existing', JWT_ROLE)).status).toBe(204);
  });

  it('in a namespace, the object is looked for in that namespace', async () => {
    const creator = await tokenWith(CREATE_ONLY, 'team-a');
    expect((await creator.post('auth/approle/role/existing', {})).status).toBe(403);
    expect((await creator.post('auth/approle/role/only-in-a', {})).status).toBe(204);
    // The root namespace has no such role: its own create-only token may make one there.
    expect((await (await tokenWith(CREATE_ONLY)).post('auth/approle/role/only-in-a', {})).status).toBe(204);
  });

  it('routes without an existence check are update, new object or not: LDAP groups, ACL policies, token creation', async () => {
    const creator = await tokenWith(CREATE_ONLY);
    const updater = await tokenWith(UPDATE_ONLY);
    expect((await creator.post('auth/ldap/groups/brand-new', { policies: 'a' })).status).toBe(403);
    expect((await updater.post('auth/ldap/groups/brand-new', { policies: 'a' })).status).toBe(204);
    expect((await updater.post('auth/ldap/groups/existing', { policies: 'b' })).status).toBe(204);
    const policy = { policy: 'path "x" { capabilities = ["read"] }' };
    expect((await creator.post('sys/policies/acl/team-new', policy)).status).toBe(403);
    expect((await updater.post('sys/policies/acl/team-new', policy)).status).toBe(204);
  });

  it('a role sub-path and a path no route serves are update', async () => {
    const creator = await tokenWith(CREATE_ONLY);
    const updater = await tokenWith(UPDATE_ONLY);
    expect((await creator.post('auth/approle/role/existing/secret-id', {})).status).toBe(403);
    expect((await updater.post('auth/approle/role/existing/secret-id', {})).status).toBe(200);
    expect((await creator.post('auth/approle/role/existing/not-served', {})).status).toBe(403);
    expect((await updater.post('auth/approle/role/existing/not-served', {})).status).toBe(404);
  });

  it('the root token writes either way', async () => {
    expect((await root.post('auth/approle/role/by-root', {})).status).toBe(204);
    expect((await root.post('auth/approle/role/by-root', {})).status).toBe(204);
  });
});
