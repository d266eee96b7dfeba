import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../support/cli.js';
import { expectNoChanges, writeManifestFolder } from '../support/e2e.js';
import { startRealServer } from '../support/real-server.js';
import { startTestServer } from '../support/server.js';

/**
 * The case of LDAP user and group names when no manifest manages the mount's config: the
 * server's `case_sensitive_names` decides (builtin/credential/ldap/path_users.go and
 * path_groups.go lower-case a name unless it is true), read from the live config
 * (src/kinds/ldap-auth/name-case.ts). Before, declared names were always lower-cased: on a
 * case-sensitive server `Fry` planned a create of `fry` and, with prune, a delete of `Fry`.
 * Against `serve` and against the real server.
 */

interface Target {
  env: Record<string, string>;
  raw(method: string, p: string, body?: unknown): Promise<{ status: number; body: unknown }>;
  stop(): Promise<void>;
}

const targets: Record<string, () => Promise<Target>> = {
  serve: async () => {
    const c = await startTestServer();
    return { env: c.env, raw: (m, p, b) => c.raw(m, p, b), stop: () => c.server.close() };
  },
  'real server': async () => {
    const s = await startRealServer();
    return { env: s.env, raw: (m, p, b) => s.raw(m, p, b), stop: () => s.stop() };
  },
};

const MANIFEST = `apiVersion: lockstep/v1
kind: LdapAuth
prune: true
groups:
  Admins: { policies: [admin] }
users:
  Fry: { groups: [Admins], policies: [dev] }
  leela: { groups: [admins] }
`;

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'lockstep-name-case-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

for (const [name, start] of Object.entries(targets)) {
  describe(`names in a mount whose config is unmanaged, against ${name}`, () => {
    let target: Target;
    beforeAll(async () => {
      target = await start();
    }, 60_000);
    afterAll(async () => {
      await target?.stop();
    });

    it('a case-sensitive server keeps the declared case: objects made as declared plan no change', async () => {
      const send = async (method: string, p: string, body?: unknown): Promise<void> => {
        const answer = await target.raw(method, p, body);
        expect(answer.status, `${p}: ${JSON.stringify(answer.body)}`).toBeLessThan(300);
      };
      await send('POST', 'sys/auth/ldap', { type: 'ldap' });
      await send('POST', 'auth/ldap/config', { case_sensitive_names: true });
      await send('POST', 'auth/ldap/groups/Admins', { policies: 'admin' });
      await send('POST', 'auth/ldap/users/Fry', { groups: 'Admins', policies: 'dev' });
      const folder = await writeManifestFolder(path.join(dir, `${name}-sensitive`), { 'ldap.yaml': MANIFEST });
      const cli = (args: string[]) => runCli(args, { env: target.env });

      const plan = await cli(['plan', folder, '--format', 'json']);
      expect(plan.code, plan.stderr).toBe(0);
      const changes = (JSON.parse(plan.stdout) as { changes: Array<{ address: string; action: string }> }).changes.map((c) => `${c.action} ${c.address.split(':')[1]}`);
      // Only leela is new; nothing of what exists is deleted or re-created in lower case.
      expect(changes).toEqual(['create auth/ldap/users/leela']);
      // On a case-sensitive server leela's `admins` is not `Admins`: a group nothing defines.
      expect(plan.stderr).toContain('group "admins" is declared by no manifest and is not on the server');
      const apply = await cli(['apply', folder, '--auto-approve']);
      expect(apply.code, apply.stderr).toBe(0);
      await expectNoChanges(cli, folder);
      const users = (await target.raw('LIST', 'auth/ldap/users')).body as { data: { keys: string[] } };
      expect([...users.data.keys].sort()).toEqual(['Fry', 'leela']);
      // With the server case sensitive, leela's `admins` is not the declared `Admins`: kept as written.
      const leela = (await target.raw('GET', 'auth/ldap/users/leela')).body as { data: { groups: string } };
      expect(leela.data.groups).toBe('admins');
    }, 60_000);

    it('a server that is not case sensitive (its default) gets lower-cased names', async () => {
      await target.raw('POST', 'sys/auth/other', { type: 'ldap' });
      const folder = await writeManifestFolder(path.join(dir, `${name}-insensitive`), { 'ldap.yaml': MANIFEST.replace('kind: LdapAuth', 'kind: LdapAuth\nmount: other') });
      const cli = (args: string[]) => runCli(args, { env: target.env });
      const plan = await cli(['plan', folder, '--format', 'json']);
      expect(plan.code, plan.stderr).toBe(0);
      const changes = (JSON.parse(plan.stdout) as { changes: Array<{ address: string; action: string }> }).changes.map((c) => `${c.action} ${c.address.split(':')[1]}`);
      expect(changes.sort()).toEqual(['create auth/other/groups/admins', 'create auth/other/users/fry', 'create auth/other/users/leela']);
      expect(plan.stderr).not.toContain('is declared by no manifest');
      const apply = await cli(['apply', folder, '--auto-approve']);
      expect(apply.code, apply.stderr).toBe(0);
      await expectNoChanges(cli, folder);
    }, 60_000);
  });
}
