import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { runCli } from '../support/cli.js';
import { writeManifestFolder } from '../support/e2e.js';
import { useRealServer } from '../support/real-server.js';
import { runAclPolicyRefusals, runAclPolicyScenario, runDeniedListScenario } from '../e2e/acl-policy.support.js';

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
    await runDeniedListScenario(server(), dir);
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
