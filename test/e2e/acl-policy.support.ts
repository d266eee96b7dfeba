/**
 * The AclPolicy kind and the check of policies that do not exist, end to end through the built
 * CLI: one scenario run against `lockstep serve` (acl-policy.test.ts) and against the real
 * server (test/real-server/acl-policy.test.ts).
 */
import path from 'node:path';
import { expect } from 'vitest';
import { runCli, type CliResult } from '../support/cli.js';
import { expectNoChanges, writeManifestFolder } from '../support/e2e.js';

export interface AclPolicyTarget {
  env: Record<string, string>;
  raw(method: string, path: string, body?: unknown): Promise<{ status: number; body: unknown }>;
}

const PROD_ADMIN = ['path "secret/data/prod/*" {', '  capabilities = ["read", "list"]', '}', ''].join('\n');
const PROD_ADMIN_WIDER = ['path "secret/data/prod/*" {', '  capabilities = ["create", "read", "update", "list"]', '}', ''].join('\n');

/** Two policies: prod-admin as `|` (its text `text`), Ops (stored `ops`) as `|-` indented by four. */
function policies(text: string): string {
  return [
    'apiVersion: lockstep/v1',
    'kind: AclPolicy',
    'name: prod-admin',
    'policy: |',
    ...text.trimEnd().split('\n').map((l) => `  ${l}`),
    '---',
    'apiVersion: lockstep/v1',
    'kind: AclPolicy',
    'name: Ops',
    'policy: |-',
    '    path "sys/health" { capabilities = ["read", "sudo"] }',
    '',
  ].join('\n');
}

/** The LDAP method: one typo (`prod-admn`) in a list and in a comma-separated text. */
const LDAP = [
  'apiVersion: lockstep/v1',
  'kind: LdapAuth',
  'config:',
  '  url: ldap://ldap.example.com',
  '  token_policies: [default, ops]',
  'groups:',
  '  admins: { policies: [prod-admin] }',
  "  ops: { policies: 'ops, prod-admn' }",
  'users:',
  '  alice: { policies: [prod-admn], groups: [admins] }',
  '',
].join('\n');

async function policyText(target: AclPolicyTarget, name: string): Promise<unknown> {
  const res = await target.raw('GET', `sys/policies/acl/${name}`);
  return (res.body as { data?: { policy?: unknown } } | null)?.data?.policy;
}

export async function runAclPolicyScenario(target: AclPolicyTarget, dir: string): Promise<void> {
  const cli = (args: string[]): Promise<CliResult> => runCli(args, { env: target.env });
  const m = path.join(dir, 'm');
  await writeManifestFolder(m, { 'policies.yaml': policies(PROD_ADMIN), 'ldap.yaml': LDAP });
  const ldapYaml = path.join(m, 'ldap.yaml');
  const typo = (line: number, column: number, severity: string): string =>
    `${ldapYaml}:${line}:${column}: ${severity}: policy "prod-admn" does not exist on cluster "default", and no AclPolicy document declares it (did you mean "prod-admin"?): a login mapped to it gets nothing from it`;

  // The policies are created before the groups that name them; each text shown line by line; the typo is a located warning, twice.
  const plan = await cli(['plan', m, '--detailed-exitcode']);
  expect(plan.code, plan.stdout + plan.stderr).toBe(2);
  expect(plan.stdout).toContain('  + default:sys/policies/acl/prod-admin\n      policy:\n        + path "secret/data/prod/*" {\n        +   capabilities = ["read", "list"]\n        + }\n');
  expect(plan.stdout).toContain('  + default:sys/policies/acl/ops\n      policy: "path \\"sys/health\\" { capabilities = [\\"read\\", \\"sudo\\"] }"\n');
  const order = ['+ default:sys/policies/acl/ops', '~ default:auth/ldap/config', '+ default:sys/policies/acl/prod-admin', '+ default:auth/ldap/groups/admins'];
  const at = order.map((line) => plan.stdout.indexOf(line));
  expect(at.every((i) => i >= 0), plan.stdout).toBe(true);
  expect(at[0]).toBeLessThan(at[1]!);
  expect(at[2]).toBeLessThan(at[3]!);
  expect(plan.stderr).toContain(typo(8, 26, 'warning'));
  expect(plan.stderr).toContain(typo(10, 23, 'warning'));

  // In a pull-request comment and in JSON too, located.
  const markdown = await cli(['plan', m, '--format', 'markdown']);
  expect(markdown.stdout).toContain(`- :warning: warning: \`${ldapYaml}:10:23\`: \`policy "prod-admn" does not exist on cluster "default", and no AclPolicy document declares it (did you mean "prod-admin"?)`);
  const json = JSON.parse((await cli(['plan', m, '--format', 'json'])).stdout) as { diagnostics: Array<Record<string, unknown>> };
  expect(json.diagnostics.filter((d) => d['severity'] === 'warning' && String(d['message']).startsWith('policy')).map((d) => [d['file'], d['line'], d['column']])).toEqual([
    [ldapYaml, 8, 26],
    [ldapYaml, 10, 23],
  ]);

  // --strict-policies: the same two, as errors; nothing applied.
  const strict = await cli(['apply', m, '--auto-approve', '--strict-policies']);
  expect(strict.code, strict.stdout + strict.stderr).toBe(1);
  expect(strict.stderr).toContain(typo(8, 26, 'error'));
  expect(strict.stderr).toContain(typo(10, 23, 'error'));
  expect((await target.raw('GET', 'sys/policies/acl/prod-admin')).status).toBe(404);

  // --target on a group brings the policy it names along.
  const targeted = await cli(['plan', m, '--target', 'default:auth/ldap/groups/admins']);
  expect(targeted.stdout).toContain('+ default:sys/policies/acl/prod-admin');

  // Applied: the texts are stored as written, byte for byte; the next plan is empty (the warnings stay).
  const applied = await cli(['apply', m, '--auto-approve']);
  expect(applied.code, applied.stdout + applied.stderr).toBe(0);
  expect(await policyText(target, 'prod-admin')).toBe(PROD_ADMIN);
  expect(await policyText(target, 'ops')).toBe('path "sys/health" { capabilities = ["read", "sudo"] }');
  await expectNoChanges(cli, m);

  // A change of text is a line diff; fixed typo: no warning.
  await writeManifestFolder(m, { 'policies.yaml': policies(PROD_ADMIN_WIDER), 'ldap.yaml': LDAP.replaceAll('prod-admn', 'prod-admin') });
  const changed = await cli(['plan', m]);
  expect(changed.stdout).toContain(
    '  ~ default:sys/policies/acl/prod-admin\n      policy:\n          path "secret/data/prod/*" {\n        -   capabilities = ["read", "list"]\n        +   capabilities = ["create", "read", "update", "list"]\n          }\n',
  );
  expect(changed.stderr).not.toContain('warning: policy');
  expect((await cli(['apply', m, '--auto-approve'])).code).toBe(0);
  expect(await policyText(target, 'prod-admin')).toBe(PROD_ADMIN_WIDER);
  await expectNoChanges(cli, m);

  // A policy made behind lockstep's back: unmanaged; `default` is neither unmanaged nor pruned. A
  // group that names it is fine until a prune would delete it.
  expect((await target.raw('PUT', 'sys/policies/acl/extra', { policy: 'path "x" { capabilities = ["read"] }' })).status).toBeLessThan(300);
  const withExtra = LDAP.replaceAll('prod-admn', 'prod-admin').replace('  admins: { policies: [prod-admin] }', '  admins: { policies: [prod-admin, extra] }');
  await writeManifestFolder(m, { 'policies.yaml': policies(PROD_ADMIN_WIDER), 'ldap.yaml': withExtra });
  const unmanaged = await cli(['plan', m]);
  expect(unmanaged.stdout).toMatch(/Unmanaged[^\n]*\n {2}default:sys\/policies\/acl\/extra\n/);
  expect(unmanaged.stdout).not.toContain('acl/default');
  expect(unmanaged.stderr).not.toContain('warning: policy');
  const prune = await cli(['plan', m, '--prune']);
  // Deleting a policy takes access away: destructive, as a pruned LDAP user or group.
  expect(prune.stdout).toContain('- default:sys/policies/acl/extra   (prune, destructive)');
  expect(prune.stdout).not.toContain('acl/default');
  expect(prune.stderr).toContain(`${ldapYaml}:7:36: warning: policy "extra" is deleted by this plan (prune) on cluster "default", and no AclPolicy document declares it`);

  // A text the service would take for base64 (only a comment: `//ab`) is sent so that it is stored as written.
  await writeManifestFolder(m, { 'policies.yaml': `${policies(PROD_ADMIN_WIDER)}---\napiVersion: lockstep/v1\nkind: AclPolicy\nname: b64\npolicy: //ab\n`, 'ldap.yaml': withExtra });
  expect((await cli(['apply', m, '--auto-approve'])).code).toBe(0);
  expect(await policyText(target, 'b64')).toBe('//ab');
  await expectNoChanges(cli, m, ['--ignore-unmanaged']);

  // Export writes the policies back (not root, not default); its manifests plan empty.
  const out = path.join(dir, 'exported');
  const exported = await cli(['export', '--out', out]);
  expect(exported.code, exported.stderr).toBe(0);
  const shown = await cli(['export']);
  expect(shown.stdout).toContain('kind: AclPolicy\nname: prod-admin\npolicy: |\n  path "secret/data/prod/*" {\n');
  expect(shown.stdout).not.toMatch(/name: (root|default)\n/);
  await expectNoChanges(cli, out);
}

/** Refused at validate time, located: a capability the service does not know inside the block, the names the service keeps. */
export async function runAclPolicyRefusals(dir: string): Promise<void> {
  const m = await writeManifestFolder(path.join(dir, 'refused'), {
    'bad.yaml': [
      'apiVersion: lockstep/v1',
      'kind: AclPolicy',
      'name: bad',
      'policy: |',
      '  path "secret/*" {',
      '    capabilities = ["reed"]',
      '  }',
      '---',
      'apiVersion: lockstep/v1',
      'kind: AclPolicy',
      'name: root',
      'policy: |',
      '  path "a" { capabilities = ["read"] }',
      '---',
      'apiVersion: lockstep/v1',
      'kind: AclPolicy',
      'name: BAD',
      'policy: |',
      '  path "a" {',
      '    capabilities = ["read"]',
      '  bad',
      '',
    ].join('\n'),
  });
  const file = path.join(m, 'bad.yaml');
  const validated = await runCli(['validate', m]);
  expect(validated.code, validated.stdout + validated.stderr).toBe(1);
  expect(validated.stderr).toContain(`${file}:6:21: error: policy: path "secret/*": invalid capability "reed"`);
  expect(validated.stderr).toContain(`${file}:11:7: error: name: "root" is the service's own policy and cannot be written`);
  expect(validated.stderr).toContain(`${file}:17:7: error: name: ACL policy "bad" is already declared at ${file}:3:7`);
  // hcl's own error ("At 4:1: ...", the text's end, after its last line break) at the end of the text's last line.
  expect(validated.stderr).toContain(`${file}:21:6: error: policy: key 'bad' expected start of object ('{') or assignment ('=')`);
}

/**
 * A token whose policy denies sys/policies/acl (made behind lockstep's back): the check of the
 * policies the manifests name is skipped there with one warning, even with --strict-policies
 * (nothing says a policy is missing), and the plan goes on.
 */
export async function runDeniedListScenario(target: AclPolicyTarget, dir: string): Promise<void> {
  const limited = 'path "*" { capabilities = ["create", "read", "update", "delete", "list", "sudo"] }\npath "sys/policies/acl" { capabilities = ["deny"] }\npath "sys/policies/acl/*" { capabilities = ["deny"] }\n';
  expect((await target.raw('PUT', 'sys/policies/acl/no-policy-list', { policy: limited })).status).toBeLessThan(300);
  const created = await target.raw('POST', 'auth/token/create', { policies: ['no-policy-list'], ttl: '1h' });
  const token = (created.body as { auth: { client_token: string } }).auth.client_token;
  const m = await writeManifestFolder(path.join(dir, 'denied'), {
    'ldap.yaml': 'apiVersion: lockstep/v1\nkind: LdapAuth\nmount: denied\ngroups:\n  admins: { policies: [prod-admn] }\n',
  });
  const plan = await runCli(['plan', m, '--strict-policies'], { env: { ...target.env, SERVICE_TOKEN: token } });
  expect(plan.code, plan.stdout + plan.stderr).toBe(0);
  expect(plan.stdout).toContain('+ default:auth/denied/groups/admins');
  expect(plan.stderr).toContain('warning: default:sys/policies/acl: the ACL policies here could not be listed: the token may not list them (403 permission denied); whether the policies the manifests name exist was not checked');
  expect(plan.stderr.match(/could not be listed/g)).toHaveLength(1);
}
