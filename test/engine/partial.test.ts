import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from '../support/cli.js';
import { useForFile } from '../support/file-scoped.js';
import { startTestServer } from '../support/server.js';
import { useTempTrees } from '../support/temp-tree.js';

// Issue 24.1: the manifest set is the unit. `plan m/ldap.yaml` with `prune: true` there and the
// users in m/users.yaml must not delete those users (src/engine/partial.ts).
const tree = useTempTrees();
const server = useForFile(() => startTestServer(), (s) => s.server.close());

const LDAP = `apiVersion: lockstep/v1
kind: LdapAuth
config:
  url: ldap://ldap.example.com
groups:
  admins: { policies: [admin] }
prune: true
`;
const USERS = `apiVersion: lockstep/v1
kind: LdapAuth
users:
  alice: { groups: [admins] }
  bob: { groups: [admins] }
`;

async function set(marker: 'lockstep.yaml' | '.git'): Promise<string> {
  const root = await tree({ 'm/ldap.yaml': LDAP, 'm/users.yaml': USERS });
  if (marker === '.git') await mkdir(join(root, '.git'));
  else await writeFile(join(root, 'lockstep.yaml'), '# the manifest set of this repository\n');
  return root;
}

describe('a partial path does not prune the rest of the set', () => {
  it.each(['lockstep.yaml', '.git'] as const)('root marked by %s: refused naming the files left out; the whole set and --allow-partial go through', async (marker) => {
    const root = await set(marker);
    const cli = (args: string[]) => runCli(args, { env: server().env, cwd: root });
    expect((await cli(['apply', 'm', '--auto-approve'])).code).toBe(0);

    const partial = await cli(['plan', 'm/ldap.yaml']);
    expect(partial.code).toBe(1);
    for (const user of ['alice', 'bob']) {
      expect(partial.stderr).toContain(`error: default:auth/ldap/users/${user}: would be deleted, but the manifest set declares it in a file this run did not read (m/users.yaml)`);
    }
    expect((await cli(['apply', 'm/ldap.yaml', '--auto-approve'])).code).toBe(1);
    expect((await server().raw('GET', 'auth/ldap/users/alice')).status).toBe(200);

    // The whole set: nothing to delete. A real prune of the part: accepted knowingly.
    const whole = await cli(['plan', 'm', '--detailed-exitcode']);
    expect(whole.code, whole.stderr).toBe(0);
    const allowed = await cli(['apply', 'm/ldap.yaml', '--auto-approve', '--allow-partial', '--allow-destructive']);
    expect(allowed.code, allowed.stderr).toBe(0);
    expect((await server().raw('GET', 'auth/ldap/users/alice')).status).toBe(404);
    await server().raw('DELETE', 'sys/auth/ldap');
  });

  it('an object no file of the set declares is pruned from a part as before', async () => {
    const root = await set('lockstep.yaml');
    const cli = (args: string[]) => runCli(args, { env: server().env, cwd: root });
    expect((await cli(['apply', 'm', '--auto-approve'])).code).toBe(0);
    await server().raw('POST', 'auth/ldap/users/mallory', { policies: 'root' });
    const plan = await cli(['plan', 'm', '--detailed-exitcode']);
    expect(plan.code).toBe(2);
    expect(plan.stdout).toMatch(/- default:auth\/ldap\/users\/mallory\s+\(prune, destructive\)/);
    expect((await cli(['apply', 'm', '--auto-approve', '--allow-destructive'])).code).toBe(0);
    await server().raw('DELETE', 'sys/auth/ldap');
  });
});
