import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningServer } from '../../../src/server/index.js';
import { apiClient, startTestServer, type ApiClient } from '../helpers.js';

// serve's ACL policies and their enforcement, as the service's: vault/logical_system.go
// (handlePoliciesList/Read/Set/Delete, handleCapabilities), vault/policy_store.go (names, the
// default policy, root and default protected), vault/acl.go and vault/request_handling.go
// (every request checked against its token's policies; sudo on root-protected paths).

let server: RunningServer & { logs: string[] };
let root: ApiClient;

beforeAll(async () => {
  server = await startTestServer();
  root = apiClient(server.clusters[0]!);
});
afterAll(() => server.close());

async function tokenWith(policies: string[], extra: Record<string, unknown> = {}): Promise<ApiClient> {
  const created = await root.post('auth/token/create', { policies, ...extra });
  expect(created.status).toBe(200);
  return apiClient(server.clusters[0]!, created.body.auth.client_token as string);
}

describe('sys/policies/acl and sys/policy', () => {
  it('lists default and root before anything is written, reads the shipped default text', async () => {
    expect((await root.list('sys/policies/acl')).body.data.keys).toEqual(['default', 'root']);
    const legacy = await root.get('sys/policy');
    expect(legacy.body.policies).toEqual(['default', 'root']);
    const text = (await root.get('sys/policies/acl/default')).body.data.policy as string;
    expect(text).toContain('path "auth/token/lookup-self"');
    expect((await root.get('sys/policies/acl/root')).body.data).toEqual({ name: 'root', policy: '' });
    expect((await root.get('sys/policies/acl/nothing')).status).toBe(404);
  });

  it('writes under the lower-cased name, reads back, lists, deletes', async () => {
    const policy = 'path "secret/*" { capabilities = ["read"] }';
    expect((await root.post('sys/policies/acl/Ops-Team', { policy })).status).toBe(204);
    expect((await root.get('sys/policies/acl/OPS-team')).body.data).toEqual({ name: 'ops-team', policy });
    expect((await root.get('sys/policy/ops-team')).body.data).toEqual({ name: 'ops-team', rules: policy });
    expect((await root.list('sys/policies/acl')).body.data.keys).toEqual(['default', 'ops-team', 'root']);
    expect((await root.delete('sys/policies/acl/ops-team')).status).toBe(204);
    expect((await root.get('sys/policies/acl/ops-team')).status).toBe(404);
  });

  it('refuses root and the deletion of default; default can be changed', async () => {
    const policy = 'path "x" { capabilities = ["read"] }';
    expect(await root.post('sys/policies/acl/root', { policy })).toEqual({ status: 400, body: { errors: ['cannot update "root" policy'] } });
    expect(await root.delete('sys/policies/acl/root')).toEqual({ status: 400, body: { errors: ['cannot delete "root" policy'] } });
    expect(await root.delete('sys/policies/acl/Default')).toEqual({ status: 400, body: { errors: ['cannot delete default policy'] } });
    const before = (await root.get('sys/policies/acl/default')).body.data.policy as string;
    expect((await root.post('sys/policies/acl/default', { policy })).status).toBe(204);
    expect((await root.get('sys/policies/acl/default')).body.data.policy).toBe(policy);
    expect((await root.post('sys/policies/acl/default', { policy: before })).status).toBe(204);
  });

  it('refuses text that does not parse, in the services words; takes legacy rules with a warning and base64', async () => {
    const bad = await root.post('sys/policies/acl/bad', { policy: 'path "a" { capabilities = ["raed"] }' });
    expect(bad).toEqual({ status: 400, body: { errors: ['failed to parse policy: path "a": invalid capability "raed"'] } });
    expect((await root.post('sys/policies/acl/bad', {})).body.errors).toEqual(["'policy' parameter not supplied or empty"]);
    const legacy = await root.post('sys/policy/legacy', { rules: 'path "a" { policy = "read" }' });
    expect(legacy.status).toBe(200);
    expect(legacy.body.warnings).toEqual(["'rules' is deprecated, please use 'policy' instead"]);
    const encoded = Buffer.from('path "b" { capabilities = ["list"] }').toString('base64');
    expect((await root.post('sys/policies/acl/encoded', { policy: encoded })).status).toBe(204);
    expect((await root.get('sys/policies/acl/encoded')).body.data.policy).toBe('path "b" { capabilities = ["list"] }');
  });

  it("token create warns only of policies the namespace's store lacks (token_store.go handleCreateCommon, GetPolicy)", async () => {
    await root.post('sys/policies/acl/present', { policy: 'path "x" { capabilities = ["read"] }' });
    const created = await root.post('auth/token/create', { policies: ['present', 'absent'] });
    expect(created.body.warnings).toEqual(['Policy "absent" does not exist']);
  });

  it('keeps each namespace its own policies', async () => {
    expect((await root.post('sys/namespaces/team-a', {})).status).toBe(200);
    const inA = apiClient(server.clusters[0]!, undefined, { namespace: 'team-a' });
    expect((await inA.post('sys/policies/acl/only-a', { policy: 'path "x" { capabilities = ["read"] }' })).status).toBe(204);
    // `root` is listed in the root namespace only (logical_system.go handlePoliciesList).
    expect((await inA.list('sys/policies/acl')).body.data.keys).toEqual(['default', 'only-a']);
    expect((await root.get('sys/policies/acl/only-a')).status).toBe(404);
  });
});

describe('enforcement: every request against its token policies', () => {
  it('a token can do exactly what its policies allow, and default lets it look itself up', async () => {
    await root.post('sys/policies/acl/reader', { policy: 'path "sys/mounts" { capabilities = ["read"] }\npath "sys/policies/acl/*" { capabilities = ["read", "list"] }' });
    const reader = await tokenWith(['reader']);
    expect((await reader.get('sys/mounts')).status).toBe(200);
    expect((await reader.get('sys/policies/acl/reader')).status).toBe(200);
    expect(await reader.post('sys/policies/acl/reader', { policy: 'path "x" { capabilities = ["read"] }' })).toEqual({ status: 403, body: { errors: ['1 error occurred:\n\t* permission denied\n\n'] } });
    expect((await reader.get('auth/token/lookup-self')).status).toBe(200);
    expect((await reader.get('sys/namespaces?list=true')).status).toBe(403);
    const noDefault = await tokenWith(['reader'], { no_default_policy: true });
    expect((await noDefault.get('auth/token/lookup-self')).status).toBe(403);
  });

  it('deny wins, and a path nothing serves is 403 before 404 for a token not allowed there', async () => {
    await root.post('sys/policies/acl/broad', { policy: 'path "sys/*" { capabilities = ["read", "list"] }' });
    await root.post('sys/policies/acl/no-mounts', { policy: 'path "sys/mounts" { capabilities = ["deny"] }' });
    const token = await tokenWith(['broad', 'no-mounts']);
    expect((await token.get('sys/mounts')).status).toBe(403);
    expect((await token.get('sys/auth')).status).toBe(200);
    expect((await token.get('sys/nothing-here')).status).toBe(404);
    expect((await token.get('secret/nothing')).status).toBe(403);
  });

  it('root-protected paths need sudo (sys/auth/* enables auth methods)', async () => {
    await root.post('sys/policies/acl/auth-admin', { policy: 'path "sys/auth/*" { capabilities = ["create", "update", "delete"] }' });
    await root.post('sys/policies/acl/auth-sudo', { policy: 'path "sys/auth/*" { capabilities = ["create", "update", "delete", "sudo"] }' });
    expect((await (await tokenWith(['auth-admin'])).post('sys/auth/ldap-a', { type: 'ldap' })).status).toBe(403);
    expect((await (await tokenWith(['auth-sudo'])).post('sys/auth/ldap-b', { type: 'ldap' })).status).toBe(204);
  });

  it('parameter constraints read the body', async () => {
    await root.post('sys/policies/acl/groups', {
      policy: 'path "auth/ldap-b/groups/*" { capabilities = ["update"] allowed_parameters = { "policies" = ["dev", "ops"] } }',
    });
    const token = await tokenWith(['groups']);
    expect((await token.post('auth/ldap-b/groups/team', { policies: 'dev' })).status).toBe(204);
    expect((await token.post('auth/ldap-b/groups/team', { policies: 'dev,admin' })).status).toBe(403);
  });

  it('sys/capabilities-self and sys/capabilities answer as acl.go Capabilities', async () => {
    const token = await tokenWith(['broad', 'no-mounts']);
    const self = await token.post('sys/capabilities-self', { paths: ['sys/mounts', 'sys/auth', 'secret/x'] });
    // Sorted by name (vault/capabilities.go Capabilities sorts what acl.go lists).
    expect(self.body.data).toEqual({ 'sys/mounts': ['deny'], 'sys/auth': ['list', 'read'], 'secret/x': ['deny'] });
    const one = await root.post('sys/capabilities', { token: server.clusters[0]!.rootToken, path: 'anything' });
    expect(one.body.data).toEqual({ anything: ['root'], capabilities: ['root'] });
  });
});
