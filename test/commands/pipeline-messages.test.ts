import { describe, expect, it } from 'vitest';
import { runCli } from '../support/cli.js';
import { useForFile } from '../support/file-scoped.js';
import { startTestServer } from '../support/server.js';
import { useTempTrees } from '../support/temp-tree.js';

/**
 * #24.4 through the built CLI: messages that send the user the right way. No manifest found is
 * an error; a --target that matches nothing is an error with the nearest address; a user's
 * local group defined nowhere is a located warning; problems of the environment are not called
 * manifest errors in the run's last line.
 */
const tree = useTempTrees();
const server = useForFile(() => startTestServer(), (s) => s.server.close());

const LDAP = `apiVersion: lockstep/v1
kind: LdapAuth
groups:
  admins: { policies: [admin] }
users:
  alice: { groups: [admins] }
`;

const NO_SERVER = { SERVICE_ADDR: '', SERVICE_TOKEN: '', VAULT_ADDR: '', VAULT_TOKEN: '' };

describe('no manifest found is an error (exit 1) for validate, plan and apply', () => {
  it.each(['validate', 'plan', 'apply'])('%s: an empty folder, a folder of other YAML, a mistyped path', async (command) => {
    const root = await tree({ 'empty/.keep': '', 'k8s/cm.yaml': 'apiVersion: v1\nkind: ConfigMap\n', 'k8s/notes.yml': 'title: not a manifest\n', 'm/ldap.yaml': LDAP });
    const run = (path: string) => runCli([command, `${root}/${path}`, ...(command === 'apply' ? ['--auto-approve'] : [])], { env: server().env });

    const empty = await run('empty');
    expect(empty.code).toBe(1);
    expect(empty.stderr).toContain(`error: no manifest found in ${root}/empty: no YAML document (.yaml or .yml files)`);
    expect(empty.stdout).not.toContain('Valid');

    const foreign = await run('k8s');
    expect(foreign.code).toBe(1);
    // One error for the folder, not one per foreign document.
    expect(foreign.stderr.trim().split('\n')).toEqual([
      `error: no manifest found in ${root}/k8s: none of the 2 YAML documents in 2 files has apiVersion: lockstep/v1`,
      'error: 1 error in the manifests; nothing was sent to any server',
    ]);

    const mistyped = await run('mm');
    expect(mistyped.code).toBe(1);
    expect(mistyped.stderr).toContain(`error: ${root}/mm: no such file or directory`);
  });
});

describe('--target', () => {
  it('that matches nothing is an error naming it, with the nearest address; one that matches plans', async () => {
    const m = await tree({ 'ldap.yaml': LDAP });
    const typo = await runCli(['plan', m, '--target', 'default:auth/ldap/users/alcie'], { env: server().env });
    expect(typo.code).toBe(1);
    expect(typo.stderr).toContain('error: --target default:auth/ldap/users/alcie: matches no object of the manifests or the servers (did you mean "default:auth/ldap/users/alice"?)');
    expect(typo.stdout).toBe('');

    // A collection is a target too, and its misspelling is suggested at its depth.
    const collection = await runCli(['apply', m, '--auto-approve', '--target', 'default:auth/ldap/user'], { env: server().env });
    expect(collection.code).toBe(1);
    expect(collection.stderr).toContain('(did you mean "default:auth/ldap/users"?)');
    expect((await server().raw('GET', 'auth/ldap/users/alice')).status).toBe(404);

    const matched = await runCli(['plan', m, '--target', 'default:auth/ldap/users'], { env: server().env });
    expect(matched.code, matched.stderr).toBe(0);
    expect(matched.stdout).toContain('+ default:auth/ldap/users/alice');
  });
});

describe("a user's local group defined nowhere", () => {
  it('is a warning at the item naming it, with the nearest group; a group only on the server is defined', async () => {
    const m = await tree({
      'ldap.yaml': `apiVersion: lockstep/v1
kind: LdapAuth
mount: corp
groups:
  admins: { policies: [admin] }
users:
  alice: { groups: [admins, admns, legacy] }
  bob: { groups: "admins,ghosts" }
`,
    });
    await server().raw('POST', 'sys/auth/corp', { type: 'ldap' });
    await server().raw('POST', 'auth/corp/groups/legacy', { policies: 'old' });
    const plan = await runCli(['plan', m], { env: server().env });
    expect(plan.code, plan.stderr).toBe(0);
    // (The other warnings of this run, a policy that exists nowhere and the access review, are tested where they are built.)
    expect(plan.stderr.split('\n').filter((l) => l.includes('warning:') && l.includes(' group "'))).toEqual([
      `${m}/ldap.yaml:7:29: warning: users.alice.groups[1]: group "admns" is declared by no manifest and is not on the server (default:auth/corp/groups): it grants nothing (did you mean "admins"?)`,
      `${m}/ldap.yaml:8:18: warning: users.bob.groups: group "ghosts" is declared by no manifest and is not on the server (default:auth/corp/groups): it grants nothing`,
    ]);
    // A warning, not an error: apply goes on (the group may come from the LDAP directory).
    const json = JSON.parse((await runCli(['plan', m, '--format', 'json'], { env: server().env })).stdout) as { diagnostics: Array<{ severity: string; line: number; message: string }> };
    expect(json.diagnostics.filter((d) => d.message.includes(' group "')).map((d) => [d.severity, d.line])).toEqual([
      ['warning', 7],
      ['warning', 8],
    ]);
  });
});

describe('environment problems are not manifest errors', () => {
  const expectEnvironmentLine = (stderr: string, n = 1) => {
    expect(stderr).not.toContain('in the manifests');
    expect(stderr).toContain(`${n} error${n === 1 ? '' : 's'} in the environment`);
  };

  it.each([
    ['a missing address', { ...NO_SERVER }, 'no cluster to talk to'],
    ['a bad token source', { SERVICE_ADDR: 'http://127.0.0.1:9/v1', SERVICE_AUTH_METHOD: 'kerberos' }, 'SERVICE_AUTH_METHOD: must be one of token, jwt, approle'],
    ['a missing CA file', { SERVICE_ADDR: 'http://127.0.0.1:9/v1', SERVICE_TOKEN: 't', SERVICE_CACERT: '/nonexistent/ca.pem' }, 'SERVICE_CACERT: cannot read the CA file'],
  ])('%s', async (_what, env, message) => {
    const m = await tree({ 'ldap.yaml': LDAP });
    const r = await runCli(['plan', m], { env: { ...NO_SERVER, ...env } });
    expect(r.code).toBe(1);
    expect(r.stderr).toContain(`error: ${message}`);
    expectEnvironmentLine(r.stderr);
    expect(r.stderr).toContain('nothing was sent to any server');
  });

  it('an unreachable server', async () => {
    const m = await tree({ 'ldap.yaml': LDAP });
    const r = await runCli(['plan', m, '--retries', '0'], { env: { SERVICE_ADDR: 'http://127.0.0.1:9/v1', SERVICE_TOKEN: 't' } });
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('cannot reach default at http://127.0.0.1:9/v1');
    expectEnvironmentLine(r.stderr);
  });

  it('a token the server refuses', async () => {
    const m = await tree({ 'ldap.yaml': LDAP });
    const r = await runCli(['plan', m, '--retries', '0'], { env: { ...server().env, SERVICE_TOKEN: 'not-a-token' } });
    expect(r.code).toBe(1);
    expectEnvironmentLine(r.stderr);
  });

  it('manifest and environment problems together are each counted where they are', async () => {
    const m = await tree({ 'ldap.yaml': `${LDAP}bogus: 1\n` });
    const r = await runCli(['plan', m], { env: { ...NO_SERVER } });
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('error: 1 error in the manifests and 1 in the environment; nothing was sent to any server');
  });
});
