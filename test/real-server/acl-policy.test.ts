import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { runCli } from '../support/cli.js';
import { writeManifestFolder } from '../support/e2e.js';
import { useRealServer } from '../support/real-server.js';
import { runAclPolicyRefusals, runAclPolicyScenario } from '../e2e/acl-policy.support.js';

/**
 * The AclPolicy kind and the check of policies that do not exist against the real server: the
 * same scenario as against serve (test/e2e/acl-policy.test.ts), and a token that may not list
 * the policies (403), which only skips the check, with one warning.
 */
vi.setConfig({ testTimeout: 240_000 });
const server = useRealServer();
let dir: string;

beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'lockstep-acl-real-'));
});

afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('the AclPolicy kind against the real server', () => {
  it('creates before the groups naming them, warns of a typo (an error when strict), diffs text, prunes, exports', async () => {
    await runAclPolicyScenario(server(), dir);
  });

  it('refuses a bad text, located inside the block scalar, and the names the service keeps', async () => {
    await runAclPolicyRefusals(dir);
  });

  it('a token that may not list the policies: one warning that the check was skipped, the plan goes on', async () => {
    const s = server();
    const limited = 'path "*" { capabilities = ["create", "read", "update", "delete", "list", "sudo"] }\npath "sys/policies/acl" { capabilities = ["deny"] }\npath "sys/policies/acl/*" { capabilities = ["deny"] }\n';
    expect((await s.raw('PUT', 'sys/policies/acl/no-policy-list', { policy: limited })).status).toBeLessThan(300);
    const created = await s.raw('POST', 'auth/token/create', { policies: ['no-policy-list'], ttl: '1h' });
    const token = (created.body as { auth: { client_token: string } }).auth.client_token;
    const m = await writeManifestFolder(path.join(dir, 'denied'), {
      'ldap.yaml': 'apiVersion: lockstep/v1\nkind: LdapAuth\nmount: denied\ngroups:\n  admins: { policies: [prod-admn] }\n',
    });
    const plan = await runCli(['plan', m, '--strict-policies'], { env: { ...s.env, SERVICE_TOKEN: token } });
    expect(plan.code, plan.stdout + plan.stderr).toBe(0);
    expect(plan.stdout).toContain('+ default:auth/denied/groups/admins');
    expect(plan.stderr).toContain('warning: default:sys/policies/acl: the ACL policies here could not be listed: the token may not list them (403 permission denied); whether the policies the manifests name exist was not checked');
    expect(plan.stderr.match(/could not be listed/g)).toHaveLength(1);
  });

  it('policies are per namespace: one in the root does not count for a method in team-a, one declared in team-a does', async () => {
    const s = server();
    expect((await s.raw('POST', 'sys/namespaces/team-a')).status).toBeLessThan(300);
    expect((await s.raw('PUT', 'sys/policies/acl/shared', { policy: 'path "a" { capabilities = ["read"] }' })).status).toBeLessThan(300);
    const ldap = 'apiVersion: lockstep/v1\nkind: LdapAuth\nnamespace: team-a\ngroups:\n  g: { policies: [shared] }\n';
    const m = await writeManifestFolder(path.join(dir, 'ns'), { 'ldap.yaml': ldap });
    const plan = await runCli(['plan', m], { env: s.env });
    expect(plan.code, plan.stdout + plan.stderr).toBe(0);
    expect(plan.stderr).toContain(`${path.join(m, 'ldap.yaml')}:5:19: warning: policy "shared" does not exist on cluster "default", namespace "team-a", and no AclPolicy document declares it`);
    const declared = 'apiVersion: lockstep/v1\nkind: AclPolicy\nnamespace: team-a\nname: shared\npolicy: |\n  path "a" { capabilities = ["read"] }\n';
    await writeManifestFolder(m, { 'ldap.yaml': ldap, 'policy.yaml': declared });
    const applied = await runCli(['apply', m, '--auto-approve'], { env: s.env });
    expect(applied.code, applied.stdout + applied.stderr).toBe(0);
    expect(applied.stderr).not.toContain('warning');
    expect((await s.raw('GET', 'team-a/sys/policies/acl/shared')).status).toBe(200);
    const again = await runCli(['plan', m, '--detailed-exitcode'], { env: s.env });
    expect(again.code, again.stdout + again.stderr).toBe(0);
    expect(again.stderr).not.toContain('warning');
  });
});
