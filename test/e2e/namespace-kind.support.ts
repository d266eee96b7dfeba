/**
 * The Namespace kind end to end through the built CLI, one scenario run against `lockstep
 * serve` (namespace-kind.test.ts) and against the real server (test/real-server/
 * namespace-kind.test.ts): create with a document in the new namespace in the same run, plan
 * empty, drift, a prune refused while a namespace holds anything, the prune of empty ones,
 * metadata updated with a merge patch, export → plan empty.
 */
import path from 'node:path';
import { expect } from 'vitest';
import { runCli, type CliResult } from '../support/cli.js';
import { expectNoChanges, writeManifestFolder } from '../support/e2e.js';

export interface NamespaceTarget {
  env: Record<string, string>;
  raw(method: string, path: string, body?: unknown): Promise<{ status: number; body: unknown }>;
}

function namespaces(metadata: string): string {
  return [
    'apiVersion: lockstep/v1',
    'kind: Namespace',
    'name: team-a',
    `custom_metadata: ${metadata}`,
    '---',
    'apiVersion: lockstep/v1',
    'kind: Namespace',
    'name: team-a/apps',
    '',
  ].join('\n');
}

const LDAP_IN_APPS = [
  'apiVersion: lockstep/v1',
  'kind: LdapAuth',
  'namespace: team-a/apps',
  'mount: corp',
  'config:',
  '  url: ldap://ldap.example.com',
  '  userattr: uid',
  'users:',
  '  alice: { policies: [dev] }',
  '',
].join('\n');

async function metadataOf(target: NamespaceTarget, namespacePath: string): Promise<unknown> {
  const res = await target.raw('GET', namespacePath);
  return (res.body as { data?: { custom_metadata?: unknown } } | null)?.data?.custom_metadata;
}

/** Whether the namespace is still there (a namespace the server is deleting in the background counts as gone). */
async function present(target: NamespaceTarget, namespacePath: string): Promise<boolean> {
  const res = await target.raw('GET', namespacePath);
  return res.status === 200 && (res.body as { data?: { tainted?: boolean } }).data?.tainted !== true;
}

export async function runNamespaceScenario(target: NamespaceTarget, dir: string): Promise<void> {
  const cli = (args: string[]): Promise<CliResult> => runCli(args, { env: target.env });
  const m = path.join(dir, 'm');
  await writeManifestFolder(m, { 'namespaces.yaml': namespaces('{ owner: ops }'), 'ldap.yaml': LDAP_IN_APPS });

  // A document in a namespace the same run declares: planned, not refused as missing; created parent first.
  const plan = await cli(['plan', m, '--detailed-exitcode']);
  expect(plan.code, plan.stdout + plan.stderr).toBe(2);
  const order = ['+ default:sys/namespaces/team-a', '+ default:team-a/sys/namespaces/apps', '+ default:team-a/apps/sys/auth/corp', '+ default:team-a/apps/auth/corp/users/alice'];
  const at = order.map((line) => plan.stdout.indexOf(line));
  expect(at.every((i) => i >= 0), plan.stdout).toBe(true);
  expect([...at].sort((a, b) => a - b)).toEqual(at);

  const applied = await cli(['apply', m, '--auto-approve']);
  expect(applied.code, applied.stdout + applied.stderr).toBe(0);
  expect(await metadataOf(target, 'sys/namespaces/team-a')).toEqual({ owner: 'ops' });
  expect((await target.raw('GET', 'team-a/apps/auth/corp/users/alice')).status).toBe(200);
  await expectNoChanges(cli, m);

  // Drift: one namespace that holds an auth method, one empty, both made behind lockstep's back; metadata changed in the manifest.
  expect((await target.raw('POST', 'sys/namespaces/team-b')).status).toBe(200);
  expect((await target.raw('POST', 'team-b/sys/auth/corp', { type: 'ldap' })).status).toBeLessThan(300);
  expect((await target.raw('POST', 'sys/namespaces/team-c')).status).toBe(200);
  await writeManifestFolder(m, { 'namespaces.yaml': namespaces('{ owner: platform, tier: gold }'), 'ldap.yaml': LDAP_IN_APPS });
  const drift = await cli(['plan', m, '--detailed-exitcode']);
  expect(drift.code, drift.stdout + drift.stderr).toBe(2);
  expect(drift.stdout).toContain('~ default:sys/namespaces/team-a\n      custom_metadata: {"owner":"ops"} -> {"owner":"platform","tier":"gold"}');
  expect(drift.stdout).toMatch(/Unmanaged[^\n]*\n {2}default:sys\/namespaces\/team-b\n {2}default:sys\/namespaces\/team-c\n/);

  // A prune that would delete a namespace holding anything is refused at plan time; nothing is applied.
  for (const command of ['plan', 'apply']) {
    const refused = await cli([command, m, '--prune', ...(command === 'apply' ? ['--auto-approve'] : [])]);
    expect(refused.code, refused.stdout + refused.stderr).toBe(1);
    expect(refused.stderr).toContain('the plan is refused');
    expect(refused.stderr).toContain('default:sys/namespaces/team-b: cannot prune this namespace: it holds auth method corp/ (deleting a namespace deletes everything in it)');
  }
  expect(await present(target, 'sys/namespaces/team-c')).toBe(true);
  expect(await metadataOf(target, 'sys/namespaces/team-a')).toEqual({ owner: 'ops' });

  // Emptied, it is pruned with the empty one; the metadata goes with a merge patch.
  expect((await target.raw('DELETE', 'team-b/sys/auth/corp')).status).toBeLessThan(300);
  const pruned = await cli(['apply', m, '--prune', '--auto-approve']);
  expect(pruned.code, pruned.stdout + pruned.stderr).toBe(0);
  expect(pruned.stdout).toContain('- default:sys/namespaces/team-b   (prune)');
  expect(pruned.stdout).toContain('- default:sys/namespaces/team-c   (prune)');
  expect(await present(target, 'sys/namespaces/team-b')).toBe(false);
  expect(await present(target, 'sys/namespaces/team-c')).toBe(false);
  expect(await metadataOf(target, 'sys/namespaces/team-a')).toEqual({ owner: 'platform', tier: 'gold' });
  await expectNoChanges(cli, m, ['--prune']);

  // A key the manifest drops is removed from the server (null in the patch).
  await writeManifestFolder(m, { 'namespaces.yaml': namespaces('{ tier: gold }'), 'ldap.yaml': LDAP_IN_APPS });
  const dropped = await cli(['apply', m, '--auto-approve']);
  expect(dropped.code, dropped.stdout + dropped.stderr).toBe(0);
  expect(await metadataOf(target, 'sys/namespaces/team-a')).toEqual({ tier: 'gold' });
  await expectNoChanges(cli, m);

  // Export writes the namespaces back, parents first; its manifests plan empty.
  const out = path.join(dir, 'exported');
  const exported = await cli(['export', '--out', out]);
  expect(exported.code, exported.stderr).toBe(0);
  const shown = await cli(['export']);
  expect(shown.stdout).toMatch(/kind: Namespace\nname: team-a\ncustom_metadata:\n {2}tier: gold\n[\s\S]*kind: Namespace\nname: team-a\/apps\n/);
  await expectNoChanges(cli, out);
}
