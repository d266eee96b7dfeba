import { execFileSync } from 'node:child_process';
import { mkdir, mkdtemp, readdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { outputRecorder } from '../support/canaries.js';
import { runCli, type CliResult } from '../support/cli.js';
import { expectNoChanges } from '../support/e2e.js';
import { startTestServer, type TestCluster } from '../support/server.js';

// End to end: the built CLI against the embedded server over HTTP.
const BINDPASS = 'canary-bindpass-7f3a9c';

const CONFIG = `apiVersion: lockstep/v1
kind: LdapAuth
config:
  url: LDAP://ldap.example.com:389
  binddn: cn=svc,dc=example,dc=com
  bindpass: \${env:LDAP_BINDPASS}
  userdn: ou=people,dc=example,dc=com
  userattr: uid
  token_policies: Default, Dev
  token_ttl: 1h
groups:
  admins: { policies: [admin] }
  devs: { policies: "dev,readers" }
`;
const USERS = `apiVersion: lockstep/v1
kind: LdapAuth
users:
  alice: { policies: [oncall], groups: [admins] }
  Bob: { groups: [devs, admins] }
`;

let cluster: TestCluster;
let dir: string;

async function manifests(files: Record<string, string>): Promise<string> {
  for (const [name, text] of Object.entries(files)) await writeFile(path.join(dir, name), text);
  return dir;
}

function cli(args: string[], extraEnv: Record<string, string> = {}): Promise<CliResult> {
  return runCli(args, { env: { ...cluster.env, LDAP_BINDPASS: BINDPASS, ...extraEnv } });
}

beforeAll(async () => {
  cluster = await startTestServer();
});
afterAll(async () => {
  await cluster.server.close();
});
beforeEach(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'lockstep-e2e-'));
  // Each test starts from a server without the ldap mount.
  await cluster.raw('DELETE', 'sys/auth/ldap');
});
afterEach(async () => {
  cluster.server.clearFaults();
  await rm(dir, { recursive: true, force: true });
});

describe('plan and apply', () => {
  it('applies, then plans no changes', async () => {
    const m = await manifests({ 'a.yaml': CONFIG, 'b.yaml': USERS });
    const plan = await cli(['plan', m, '--detailed-exitcode']);
    expect(plan.code, plan.stderr).toBe(2);
    expect(plan.stdout).toContain('+ default:sys/auth/ldap');
    expect(plan.stdout).toContain('+ default:auth/ldap/users/bob');
    expect(plan.stdout).toContain('~ default:auth/ldap/config');
    expect(plan.stdout).toContain('token_ttl: 0 -> 3600');
    expect(plan.stdout).toMatch(/Plan: 5 to add, 1 to change, 0 to delete\./);

    const apply = await cli(['apply', m, '--auto-approve']);
    expect(apply.code, apply.stderr + apply.stdout).toBe(0);
    await expectNoChanges(cli, m);

    const user = await cluster.raw('GET', 'auth/ldap/users/bob');
    expect(user.body).toMatchObject({ data: { groups: 'admins,devs', policies: [] } });
  });

  it('shows a change made behind its back as drift (exit 2)', async () => {
    const m = await manifests({ 'a.yaml': CONFIG, 'b.yaml': USERS });
    expect((await cli(['apply', m, '--auto-approve'])).code).toBe(0);
    await cluster.raw('POST', 'auth/ldap/groups/admins', { policies: 'admin,root-ish' });
    await cluster.raw('POST', 'auth/ldap/config', { token_ttl: '2h' });
    const plan = await cli(['plan', m, '--detailed-exitcode']);
    expect(plan.code).toBe(2);
    expect(plan.stdout).toContain('~ default:auth/ldap/groups/admins');
    expect(plan.stdout).toContain('policies: ["admin","root-ish"] -> ["admin"]');
    expect(plan.stdout).toContain('token_ttl: 7200 -> 3600');
    expect((await cli(['apply', m, '--auto-approve'])).code).toBe(0);
    expect((await cli(['plan', m, '--detailed-exitcode'])).code).toBe(0);
  });

  it('#14.3: a config written by another client in the service\'s forms plans no changes against a natural manifest', async () => {
    // As an operator would write it with another client; the service stores token_policies as
    // given (tokenutil ParseTokenFields) and reads unset filters back as their default templates.
    expect((await cluster.raw('POST', 'sys/auth/ldap', { type: 'ldap' })).status).toBe(204);
    const written = await cluster.raw('POST', 'auth/ldap/config', {
      url: 'ldap://ldap.example.com:389',
      binddn: 'cn=svc,dc=example,dc=com',
      bindpass: BINDPASS,
      userdn: 'ou=people,dc=example,dc=com',
      userattr: 'uid',
      token_policies: ['Dev', 'default', 'Dev'],
      // A field the manifest does not set is at its default there: written here, it is drift.
      use_token_groups: false,
    });
    expect(written.status).toBe(204);
    const live = await cluster.raw('GET', 'auth/ldap/config');
    expect((live.body as { data: unknown }).data).toMatchObject({ token_policies: ['Dev', 'default', 'Dev'], userfilter: '({{.UserAttr}}={{.Username}})' });
    const m = await manifests({
      'a.yaml': `apiVersion: lockstep/v1
kind: LdapAuth
config:
  url: ldap://ldap.example.com:389
  binddn: cn=svc,dc=example,dc=com
  bindpass: \${env:LDAP_BINDPASS}
  userdn: ou=people,dc=example,dc=com
  userattr: uid
  token_policies: [default, Dev]
`,
    });
    await expectNoChanges(cli, m);
    // A real change of the set still shows, in the service's stored form.
    await cluster.raw('POST', 'auth/ldap/config', { token_policies: 'Dev' });
    const plan = await cli(['plan', m, '--detailed-exitcode']);
    expect(plan.code, plan.stderr).toBe(2);
    expect(plan.stdout).toContain('token_policies: ["Dev"] -> ["default","Dev"]');
  });

  it('lists unmanaged objects (drift: exit 2, unless --ignore-unmanaged) and deletes them only with --prune', async () => {
    const m = await manifests({ 'a.yaml': CONFIG, 'b.yaml': USERS });
    expect((await cli(['apply', m, '--auto-approve'])).code).toBe(0);
    await cluster.raw('POST', 'auth/ldap/users/mallory', { policies: 'admin' });
    const plan = await cli(['plan', m, '--detailed-exitcode']);
    expect(plan.code).toBe(2);
    expect(plan.stdout).toContain('default:auth/ldap/users/mallory');
    expect(plan.stdout).toContain('No changes to make, but 1 object on the servers is in no manifest (unmanaged, below).');
    expect(plan.stdout).not.toContain('Live state matches');
    expect((await cli(['plan', m, '--detailed-exitcode', '--ignore-unmanaged'])).code).toBe(0);
    const pruning = await cli(['plan', m, '--prune', '--detailed-exitcode']);
    expect(pruning.code).toBe(2);
    expect(pruning.stdout).toMatch(/- default:auth\/ldap\/users\/mallory\s+\(prune, destructive\)/);
    // Pruning a user takes access away: destructive, and apply wants --allow-destructive for it.
    const refused = await cli(['apply', m, '--prune', '--auto-approve']);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain('refusing to apply: 1 destructive action');
    expect(refused.stderr).toContain('  default:auth/ldap/users/mallory');
    expect((await cluster.raw('GET', 'auth/ldap/users/mallory')).status).toBe(200);
    expect((await cli(['apply', m, '--prune', '--auto-approve', '--allow-destructive'])).code).toBe(0);
    expect((await cluster.raw('GET', 'auth/ldap/users/mallory')).status).toBe(404);
    expect((await cli(['plan', m, '--prune', '--detailed-exitcode'])).code).toBe(0);
  });

  it('counts the deletes a prune makes of groups and users as destructive, in text, JSON and markdown', async () => {
    const m = await manifests({ 'a.yaml': CONFIG, 'b.yaml': USERS });
    expect((await cli(['apply', m, '--auto-approve'])).code).toBe(0);
    await cluster.raw('POST', 'auth/ldap/users/mallory', { policies: 'admin' });
    await cluster.raw('POST', 'auth/ldap/groups/rogues', { policies: 'admin' });

    const text = await cli(['plan', m, '--prune']);
    expect(text.stdout).toMatch(/- default:auth\/ldap\/groups\/rogues\s+\(prune, destructive\)\n\s+# deleting the group takes its policies from every member/);
    expect(text.stdout).toMatch(/- default:auth\/ldap\/users\/mallory\s+\(prune, destructive\)/);
    expect(text.stdout).toMatch(/\nPlan: 0 to add, 0 to change, 2 to delete \(2 destructive\)\.$/m);

    const json = JSON.parse((await cli(['plan', m, '--prune', '--format', 'json'])).stdout) as { changes: Array<{ address: string; destructive: boolean }>; summary: { delete: number; destructive: number } };
    expect(json.changes.map((c) => [c.address, c.destructive])).toEqual([
      ['default:auth/ldap/users/mallory', true],
      ['default:auth/ldap/groups/rogues', true],
    ]);
    expect(json.summary).toMatchObject({ delete: 2, destructive: 2 });

    const markdown = (await cli(['plan', m, '--prune', '--format', 'markdown'])).stdout;
    expect(markdown).toContain('### lockstep plan: 0 to add, 0 to change, 2 to delete (2 destructive)');
    expect(markdown).toContain('> :warning: **2 destructive changes**');

    const refused = await cli(['apply', m, '--prune', '--auto-approve']);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain('refusing to apply: 2 destructive actions (they wipe or orphan data, or take access away):\n  default:auth/ldap/users/mallory\n  default:auth/ldap/groups/rogues\n');
    expect((await cluster.raw('GET', 'auth/ldap/groups/rogues')).status).toBe(200);
    expect((await cli(['apply', m, '--prune', '--auto-approve', '--allow-destructive'])).code).toBe(0);
    expect((await cli(['plan', m, '--prune', '--detailed-exitcode'])).code).toBe(0);
  });

  it('applies a saved plan, and refuses a stale one', async () => {
    const m = await manifests({ 'a.yaml': CONFIG, 'b.yaml': USERS });
    const planFile = path.join(dir, 'plan.bin');
    expect((await cli(['plan', m, '--out', planFile])).code).toBe(0);
    expect(await readFile(planFile, 'utf8')).not.toContain(BINDPASS);
    const ok = await cli(['apply', planFile]);
    expect(ok.code, ok.stderr).toBe(0);
    expect((await cli(['plan', m, '--detailed-exitcode'])).code).toBe(0);

    await cluster.raw('POST', 'auth/ldap/groups/devs', { policies: 'other' });
    expect((await cli(['plan', m, '--out', planFile])).code).toBe(0);
    await cluster.raw('POST', 'auth/ldap/groups/devs', { policies: 'changed-again' });
    const stale = await cli(['apply', planFile]);
    expect(stale.code).toBe(1);
    expect(stale.stderr).toContain('stale');
    expect(stale.stderr).toContain('default:auth/ldap/groups/devs');
    expect((await cluster.raw('GET', 'auth/ldap/groups/devs')).body).toMatchObject({ data: { policies: ['changed-again'] } });
  });

  it('shows a saved plan in every format as plan printed it, without a server', async () => {
    const m = await manifests({ 'a.yaml': CONFIG, 'b.yaml': USERS });
    const planFile = path.join(dir, 'plan.json');
    // The run's own warnings (an access review skipped: the directory is example.com) are not saved with the plan.
    const saved = await cli(['plan', m, '--out', planFile, '--access-review', 'off']);
    expect(saved.code).toBe(0);
    for (const format of ['text', 'json', 'markdown']) {
      const planned = format === 'text' ? saved : await cli(['plan', m, '--format', format, '--access-review', 'off']);
      // Against no server at all: show reads the file only.
      const shown = await runCli(['show', planFile, '--format', format], { env: { SERVICE_ADDR: 'http://127.0.0.1:9/v1', SERVICE_TOKEN: 'unused' } });
      expect(shown.code, shown.stderr).toBe(0);
      expect(shown.stdout).toBe(planned.stdout.replace(/Saved the plan to .*\n$/, ''));
    }
    const notAPlan = await runCli(['show', path.join(m, 'a.yaml')]);
    expect(notAPlan.code).toBe(1);
    expect(notAPlan.stderr.trim()).toMatch(/^error: .*a\.yaml: not a saved lockstep plan \(.*\)$/);
  });

  it('applies a saved plan from a checkout moved elsewhere, and refuses it once a manifest there differs', async () => {
    const checkout = path.join(dir, 'ci-runner-1');
    await mkdir(path.join(checkout, 'manifests'), { recursive: true });
    await writeFile(path.join(checkout, 'manifests', 'a.yaml'), CONFIG);
    await writeFile(path.join(checkout, 'manifests', 'b.yaml'), USERS);
    const env = { ...cluster.env, LDAP_BINDPASS: BINDPASS };
    expect((await runCli(['plan', 'manifests', '--out', 'plan.json'], { env, cwd: checkout })).code).toBe(0);
    // The merge job checks the repository out at another path.
    const moved = path.join(dir, 'ci-runner-2');
    await rename(checkout, moved);
    await writeFile(path.join(moved, 'manifests', 'b.yaml'), USERS.replace('oncall', 'other'));
    const stale = await runCli(['apply', 'plan.json'], { env, cwd: moved });
    expect(stale.code).toBe(1);
    expect(stale.stderr).toContain('the saved plan is stale: the manifests changed');
    await writeFile(path.join(moved, 'manifests', 'b.yaml'), USERS);
    const ok = await runCli(['apply', 'plan.json'], { env, cwd: moved });
    expect(ok.code, ok.stderr).toBe(0);
    expect((await runCli(['plan', 'manifests', '--detailed-exitcode'], { env, cwd: moved })).code).toBe(0);
  });

  it('reports a failed apply and converges when run again', async () => {
    const m = await manifests({ 'a.yaml': CONFIG, 'b.yaml': USERS });
    cluster.server.injectFault({ method: 'POST', path: /^auth\/ldap\/groups\//, status: 500, times: 100, errors: ['storage exploded'] });
    const failed = await cli(['apply', m, '--auto-approve']);
    expect(failed.code).toBe(1);
    expect(failed.stdout).toMatch(/Apply failed: \d+ done, \d+ failed, \d+ not started/);
    expect(failed.stdout).toContain('storage exploded');
    expect(failed.stdout + failed.stderr).not.toMatch(/\n\s+at /); // no stack trace
    cluster.server.clearFaults();
    const again = await cli(['apply', m, '--auto-approve']);
    expect(again.code, again.stdout).toBe(0);
    expect((await cli(['plan', m, '--detailed-exitcode'])).code).toBe(0);
  });

  it('refuses to apply without approval when not on a terminal', async () => {
    const m = await manifests({ 'a.yaml': CONFIG });
    const r = await cli(['apply', m]);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('--auto-approve');
    expect((await cluster.raw('GET', 'sys/auth')).body).not.toHaveProperty('data.ldap/');
  });

  it('--target limits the plan to an address and what it depends on', async () => {
    const m = await manifests({ 'a.yaml': CONFIG, 'b.yaml': USERS });
    const r = await cli(['plan', m, '--target', 'default:auth/ldap/users/alice']);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('default:auth/ldap/users/alice');
    expect(r.stdout).toContain('default:auth/ldap/groups/admins');
    expect(r.stdout).not.toContain('default:auth/ldap/users/bob');
  });

  it('--target on an unknown cluster, or a URL, is an error rather than an empty plan', async () => {
    const m = await manifests({ 'a.yaml': CONFIG });
    const unknown = await cli(['plan', m, '--target', 'east:auth/ldap/users/alice']);
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toContain('--target east:auth/ldap/users/alice: no cluster named "east"; known clusters: default');
    const url = await cli(['apply', m, '--auto-approve', '--target', 'http://127.0.0.1:8200/v1/auth/ldap']);
    expect(url.code).toBe(1);
    expect(url.stderr).toContain('is not an address');
    const empty = await cli(['plan', m, '--target', 'default:auth/ldap//users/alice']);
    expect(empty.code).toBe(1);
    expect(empty.stderr).toContain('--target "default:auth/ldap//users/alice" has an empty segment ("//")');
    expect((await cluster.raw('GET', 'sys/auth')).body).not.toHaveProperty('data.ldap/');
  });
});

describe('markdown for pull requests', () => {
  it('shortens a plan too long for one comment; --comment-limit 0 does not, and a tiny limit is refused', async () => {
    const users = Array.from({ length: 1500 }, (_, i) => `  u${i}: { policies: [p${i % 7}], groups: [devs] }`).join('\n');
    const m = await manifests({ 'config.yaml': CONFIG, 'users.yaml': `apiVersion: lockstep/v1\nkind: LdapAuth\nusers:\n${users}\n` });

    const short = await cli(['plan', m, '--format', 'markdown']);
    expect(short.code).toBe(0);
    const comment = short.stdout.trimEnd();
    expect(comment.length).toBeLessThanOrEqual(60_000);
    expect(comment.split('\n')[0]).toBe('### lockstep plan: 1503 to add, 1 to change, 0 to delete');
    expect(comment).toMatch(/_This comment is shortened to stay under 60,000 characters: \d+ of 1504 changes listed, \d+ of 1504 diffs shown, destructive changes, deletes and updates first\./);
    // The config's update gets its diff before any of the 1,503 creates.
    expect(comment).toContain('<summary><code>~ default:auth/ldap/config</code></summary>');

    const full = await cli(['plan', m, '--format', 'markdown', '--comment-limit', '0']);
    expect(full.code).toBe(0);
    expect(full.stdout.length).toBeGreaterThan(60_000);
    expect(full.stdout).not.toContain('shortened');
    expect(full.stdout).toContain('| create | `default:auth/ldap/users/u1499` |');

    const tiny = await cli(['plan', m, '--format', 'markdown', '--comment-limit', '100']);
    expect(tiny.code).toBe(1);
    expect(tiny.stderr.trim()).toBe('error: --comment-limit must be 0 (no limit) or a whole number of at least 2000 (got "100")');
  });
});

describe('export', () => {
  it('round-trips: plan on the exported manifests shows no changes', async () => {
    const m = await manifests({ 'a.yaml': CONFIG, 'b.yaml': USERS });
    expect((await cli(['apply', m, '--auto-approve'])).code).toBe(0);
    const out = path.join(dir, 'exported');
    const exp = await cli(['export', '--out', out]);
    expect(exp.code, exp.stderr).toBe(0);
    const files = await readdir(out);
    expect(files).toEqual(['default-ldap-auth.yaml']);
    const text = await readFile(path.join(out, files[0]!), 'utf8');
    expect(text).toContain('${env:DEFAULT_LDAP_BINDPASS}');
    expect(text).not.toContain(BINDPASS);
    const plan = await cli(['plan', out, '--detailed-exitcode'], { DEFAULT_LDAP_BINDPASS: 'x' });
    expect(plan.code, plan.stdout + plan.stderr).toBe(0);
  });
  it('#13.5: server values that read like references are exported escaped; planning the export reads no variable and no file', async () => {
    expect((await cluster.raw('POST', 'sys/auth/ldap', { type: 'ldap' })).status).toBeLessThan(300);
    const config = { url: 'ldap://ldap.example.com', binddn: '${env:SERVICE_TOKEN}', userdn: 'ou=$${x},dc=example', userattr: 'uid' };
    expect((await cluster.raw('POST', 'auth/ldap/config', config)).status).toBeLessThan(300);
    expect((await cluster.raw('POST', 'auth/ldap/groups/ops', { policies: '${file:/etc/hostname}' })).status).toBeLessThan(300);
    const out = path.join(dir, 'exported');
    const { record, add, expectNoCanaries } = outputRecorder();
    expect(record(await cli(['export', '--out', out])).code).toBe(0);
    const text = await readFile(path.join(out, 'default-ldap-auth.yaml'), 'utf8');
    add(text);
    expect(text).toContain('binddn: $${env:SERVICE_TOKEN}');
    expect(text).toContain('userdn: ou=$$${x},dc=example');
    expect(text).toContain('$${file:/etc/hostname}');
    expect(text).toContain('bindpass: ${env:DEFAULT_LDAP_BINDPASS}');
    const plan = record(await cli(['plan', out, '--detailed-exitcode'], { DEFAULT_LDAP_BINDPASS: 'x' }));
    expect(plan.code, plan.stdout + plan.stderr).toBe(0);
    expect(plan.stdout).toContain('No changes. Live state matches the manifests.');
    expectNoCanaries([cluster.token], 100);
  });
});

describe('secrets never appear', () => {
  it('keeps bindpass, client key and the cluster token out of every output', async () => {
    execFileSync('openssl', ['req', '-x509', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:P-256', '-nodes', '-keyout', path.join(dir, 'k.pem'), '-out', path.join(dir, 'c.pem'), '-subj', '/CN=client', '-days', '1'], { stdio: 'ignore' });
    const key = await readFile(path.join(dir, 'k.pem'), 'utf8');
    const keyCanary = key.split('\n')[1]!; // a line of the key's body
    const m = await manifests({
      'a.yaml': CONFIG.replace('groups:', `  client_tls_cert: \${file:c.pem}\n  client_tls_key: \${env:CLIENT_KEY}\ngroups:`),
    });
    const env = { CLIENT_KEY: key };
    const { record, add, expectNoCanaries } = outputRecorder();
    // An invalid key is a diagnostic, which must not quote it either.
    record(await cli(['validate', m], env));
    record(await cli(['plan', m], env));
    for (const f of ['json', 'markdown']) record(await cli(['plan', m, '--format', f], env));
    const planFile = path.join(dir, 'p.plan');
    record(await cli(['plan', m, '--out', planFile], env));
    add(await readFile(planFile, 'utf8').catch(() => ''));
    cluster.server.injectFault({ method: 'POST', path: /config$/, status: 400, errors: [`bad bindpass ${BINDPASS}`] });
    record(await cli(['apply', m, '--auto-approve'], env));
    record(await cli(['plan', m], { ...env, SERVICE_TOKEN: cluster.token, SERVICE_ADDR: 'http://127.0.0.1:1/v1' }));
    expectNoCanaries([BINDPASS, keyCanary, cluster.token], 100);
  });
});
