import { lstat, mkdir, mkdtemp, readFile, readdir, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { outputRecorder } from '../support/canaries.js';
import { runCli, type CliResult } from '../support/cli.js';
import { expectNoChanges } from '../support/e2e.js';
import { startTestServer, type TestCluster } from '../support/server.js';

// Contract section 5: a value that is a secret anywhere (a cluster token, any value read into a
// secret field) is redacted wherever it appears, in any field and any escaped form.
const BINDPASS = 'canary-bind"pass\\9d2e';

let cluster: TestCluster;
let dir: string;

beforeAll(async () => {
  cluster = await startTestServer(`root-canary-${Math.random().toString(36).slice(2)}`);
  dir = await mkdtemp(path.join(tmpdir(), 'lockstep-secret-anywhere-'));
});
afterAll(async () => {
  await cluster.server.close();
  await rm(dir, { recursive: true, force: true });
});

const cli = (args: string[]): Promise<CliResult> => runCli(args, { env: { ...cluster.env, LDAP_BINDPASS: BINDPASS } });

describe('a secret reused in a field that is not secret', () => {
  it('#13.3: the cluster token as binddn and the bindpass inside userdn never show, in any format or the saved plan', async () => {
    const recorder = outputRecorder();
    const file = path.join(dir, 'ldap.yaml');
    await writeFile(
      file,
      `apiVersion: lockstep/v1
kind: LdapAuth
config:
  url: ldap://ldap.example.com
  binddn: \${env:SERVICE_TOKEN}
  bindpass: \${env:LDAP_BINDPASS}
  userdn: \${env:LDAP_BINDPASS}
  userattr: uid
groups:
  admins: { policies: [admin] }
`,
    );
    const saved = path.join(dir, 'plan.json');
    const text = recorder.record(await cli(['plan', file, '--out', saved]));
    expect(text.code, text.stderr).toBe(0);
    expect(text.stdout).toMatch(/binddn: "" -> "\(sensitive\)"/);
    expect(text.stdout).toMatch(/userdn: "" -> "\(sensitive\)"/);
    for (const format of ['json', 'markdown']) {
      const run = recorder.record(await cli(['plan', file, '--format', format]));
      expect(run.code, run.stderr).toBe(0);
      expect(run.stdout).toContain('(sensitive)');
    }
    recorder.add(await readFile(saved, 'utf8'));
    const applied = recorder.record(await cli(['apply', saved]));
    expect(applied.code, applied.stderr + applied.stdout).toBe(0);
    // The server holds what the manifest asked for: the values are sent, only never shown.
    const config = (await cluster.raw('GET', 'auth/ldap/config')).body as { data: Record<string, unknown> };
    expect(config.data['binddn']).toBe(cluster.token);
    await expectNoChanges(cli, file);
    recorder.expectNoCanaries([cluster.token, BINDPASS], 2000);
  });

  it('a secret that is also an object\'s name: the saved plan is refused, not written, and no output shows it', async () => {
    const recorder = outputRecorder();
    const file = path.join(dir, 'named.yaml');
    // The group and the user are named what the bindpass holds: their addresses, which a saved
    // plan must keep as written, would hold the secret.
    const name = 'platformadmins';
    await writeFile(
      file,
      `apiVersion: lockstep/v1
kind: LdapAuth
mount: named
config:
  url: ldap://ldap.example.com
  bindpass: \${env:LDAP_BINDPASS}
groups:
  ${name}: { policies: [admin] }
users:
  "${name}@corp": { groups: [${name}] }
`,
    );
    const named = (args: string[]): Promise<CliResult> => runCli(args, { env: { ...cluster.env, LDAP_BINDPASS: name } });
    const saved = path.join(dir, 'named-plan.json');
    const refused = recorder.record(await named(['plan', file, '--out', saved]));
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain('the plan was not saved: it would hold a secret the manifests reference');
    await expect(readFile(saved, 'utf8')).rejects.toThrow(/ENOENT/);
    for (const format of ['text', 'json', 'markdown']) {
      const run = recorder.record(await named(['plan', file, '--format', format]));
      expect(run.code, run.stderr).toBe(0);
      expect(run.stdout).toContain('(sensitive)');
    }
    recorder.expectNoCanaries([name], 4);
  });
});

describe('validate', () => {
  it("the environment's token read into a field that is printed never shows, though validate builds no cluster", async () => {
    const recorder = outputRecorder();
    const file = path.join(dir, 'token-as-cluster.yaml');
    await writeFile(file, 'apiVersion: lockstep/v1\nkind: LdapAuth\ncluster: ${env:SERVICE_TOKEN}\nmount: ${env:SERVICE_TOKEN}/..\n');
    for (const format of ['text', 'json']) {
      const run = recorder.record(await runCli(['validate', file, '--format', format], { env: { SERVICE_TOKEN: cluster.token } }));
      expect(run.code).toBe(1);
      expect(run.stdout + run.stderr).toContain('(sensitive)');
    }
    recorder.expectNoCanaries([cluster.token], 100);
  });

  it('a reference in a secret field written in the wrong shape is still a secret where the same reference is quoted', async () => {
    const recorder = outputRecorder();
    const file = path.join(dir, 'secret-as-list.yaml');
    await writeFile(file, 'apiVersion: lockstep/v1\nkind: LdapAuth\nconfig:\n  url: ${env:BPS}\n  token_bound_cidrs: ${env:BPS}\n  bindpass:\n    - ${env:BPS}\n');
    for (const format of ['text', 'json']) {
      const run = recorder.record(await runCli(['validate', file, '--format', format], { env: { BPS: 'BindPassCanary88' } }));
      expect(run.code).toBe(1);
      expect(run.stdout + run.stderr).toContain('(sensitive)');
    }
    recorder.expectNoCanaries(['BindPassCanary88'], 100);
  });
});

describe('export', () => {
  it('a secret of several lines held in a readable field is written "(sensitive)", said, in the files and on stdout', async () => {
    const recorder = outputRecorder();
    const multiLine = 'CanaryLineOne1234\nCanaryLineTwo5678';
    const file = path.join(dir, 'export-ldap.yaml');
    await writeFile(
      file,
      `apiVersion: lockstep/v1
kind: LdapAuth
mount: exported
config:
  url: ldap://ldap.example.com
  binddn: cn=svc
  bindpass: \${env:LDAP_BINDPASS}
`,
    );
    const run = (args: string[]): Promise<CliResult> => runCli(args, { env: { ...cluster.env, LDAP_BINDPASS: multiLine } });
    const applied = recorder.record(await run(['apply', file, '--auto-approve', '--access-review', 'off']));
    expect(applied.code, applied.stderr).toBe(0);
    // Someone stores the secret in a field that is read back: YAML writes it as an indented block.
    await cluster.raw('POST', 'auth/exported/config', { upndomain: multiLine });
    const out = path.join(dir, 'exported');
    await mkdir(out);
    // A link planted where a file will be written: replaced, never followed.
    const victim = path.join(dir, 'victim.txt');
    await writeFile(victim, 'precious\n');
    await symlink(victim, path.join(out, 'default-ldap-auth.yaml'));
    for (const args of [['export', file, '--out', out], ['export', file]]) {
      const exported = recorder.record(await run(args));
      expect(exported.code, exported.stderr).toBe(0);
      expect(exported.stderr).toContain('a value on the server is a secret of this run');
    }
    const written = path.join(out, 'default-ldap-auth.yaml');
    expect((await lstat(written)).isSymbolicLink()).toBe(false);
    expect(await readFile(victim, 'utf8')).toBe('precious\n');
    const text = await readFile(written, 'utf8');
    recorder.add(text);
    expect(text).toMatch(/upndomain: "?\(sensitive\)"?/);
    // Nothing but the files is left in the directory (no temporary file).
    expect((await readdir(out)).sort()).toEqual(['default-ldap-auth.yaml']);
    recorder.expectNoCanaries([multiLine, 'CanaryLineOne1234', 'CanaryLineTwo5678'], 8);
  });
});
