import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createClusterClient } from '../../src/client/http-client.js';
import { ConcurrencyLimiter } from '../../src/client/limiter.js';
import { Secret } from '../../src/core/secret.js';
import { exportLdapAuth } from '../../src/kinds/ldap-auth/export.js';
import { manifestText } from '../../src/load/manifest-writer.js';
import { runCli, type CliResult } from '../support/cli.js';
import { expectNoChanges, writeManifestFolder } from '../support/e2e.js';
import { useRealServer } from '../support/real-server.js';

// Issue 25.1: an auth method mounted at a path of several segments (`team/ldap`, legal on the
// service) works end to end against the real server: plan, apply (the mount enabled at that
// path), prune, export → plan empty; and the real server's own client sees what lockstep wrote.
const server = useRealServer();

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'lockstep-mount-paths-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

/** A client of lockstep's own, as the commands make one. */
function client(address: string, { token }: { token: string }) {
  return createClusterClient({ name: 'default', address, auth: { method: 'token', token: new Secret(token, 'env:SERVICE_TOKEN') }, authSource: 'SERVICE_TOKEN', insecureSkipVerify: false }, { limiter: new ConcurrencyLimiter(4) });
}

const cli = (args: string[]): Promise<CliResult> => runCli(args, { env: server().env });

const manifest = (mount: string, groups: string[], prune: boolean): string =>
  [
    'apiVersion: lockstep/v1',
    'kind: LdapAuth',
    `mount: ${mount}`,
    ...(prune ? ['prune: true'] : []),
    'config: { url: "ldap://ldap.example.com", userdn: "ou=people,dc=example,dc=com" }',
    'groups:',
    ...groups.map((g) => `  ${g}: { policies: [dev] }`),
    '',
  ].join('\n');

describe('a mount path of several segments on the real server', () => {
  for (const mount of ['team/ldap', 'a/b/c']) {
    it(`${mount}: plan, apply, prune, export → plan`, async () => {
      const folder = await writeManifestFolder(path.join(dir, mount.replace(/\//g, '_')), { 'ldap.yaml': manifest(mount, ['admins', 'dev'], false) });
      expect((await cli(['validate', folder])).code).toBe(0);

      const plan = await cli(['plan', folder, '--format', 'json']);
      expect(plan.code, plan.stderr).toBe(0);
      const addresses = (JSON.parse(plan.stdout) as { changes: Array<{ address: string }> }).changes.map((c) => c.address);
      expect(addresses).toContain(`default:sys/auth/${mount}`);
      expect(addresses).toContain(`default:auth/${mount}/groups/admins`);

      const apply = await cli(['apply', folder, '--auto-approve']);
      expect(apply.code, apply.stdout + apply.stderr).toBe(0);
      const table = await server().raw('GET', 'sys/auth');
      expect(table.body).toHaveProperty(['data', `${mount}/`, 'type'], 'ldap');
      const read = await server().client(['read', '-format=json', `auth/${mount}/groups/admins`]);
      expect(read.code, read.stderr).toBe(0);
      expect(JSON.parse(read.stdout)).toHaveProperty(['data', 'policies'], ['dev']);
      await expectNoChanges(cli, folder);

      // A group made behind lockstep's back, then pruned; only it is deleted.
      expect((await server().raw('POST', `auth/${mount}/groups/stray`, { policies: 'x' })).status).toBe(204);
      await writeManifestFolder(folder, { 'ldap.yaml': manifest(mount, ['admins', 'dev'], true) });
      const pruned = await cli(['apply', folder, '--auto-approve', '--allow-destructive']);
      expect(pruned.code, pruned.stdout + pruned.stderr).toBe(0);
      expect(pruned.stdout).toContain(`auth/${mount}/groups/stray`);
      const list = await server().client(['list', '-format=json', `auth/${mount}/groups`]);
      expect(JSON.parse(list.stdout)).toEqual(['admins', 'dev']);
      await expectNoChanges(cli, folder);

      // The LdapAuth export, written as `export` writes it, plans empty. (The `export` command as a
      // whole stops on OpenBao: it has no DR replication, and refuses the anonymous
      // sys/replication/dr/status read that DrReplication's export makes; left for that kind.)
      const live = client(server().addr + '/v1', { token: server().token });
      const docs = await exportLdapAuth(live, { name: 'default', address: server().addr + '/v1', auth: { method: 'token', token: new Secret(server().token, 'env:SERVICE_TOKEN') }, authSource: 'SERVICE_TOKEN', insecureSkipVerify: false });
      live.close();
      expect(docs.map((d) => d['mount'])).toContain(mount);
      const out = await writeManifestFolder(path.join(dir, `export-${mount.replace(/\//g, '_')}`), { 'default-ldap-auth.yaml': manifestText(docs) });
      expect((await cli(['validate', out])).code).toBe(0);
      await expectNoChanges(cli, out);
    }, 120_000);
  }

  it('a mount inside a declared one is refused before anything is sent', async () => {
    const folder = await writeManifestFolder(path.join(dir, 'overlap'), {
      'a.yaml': manifest('corp', ['x'], false),
      'b.yaml': manifest('corp/ldap', ['y'], false),
    });
    const result = await cli(['plan', folder]);
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/b\.yaml:3:8: error: mount: mount "corp\/ldap" \(cluster default\) lies within mount "corp"/);
  });
});
