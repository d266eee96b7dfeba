import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { JsonApply } from '../../src/render/apply-json.js';
import type { JsonValidation } from '../../src/render/validate-json.js';
import { outputRecorder, type OutputRecorder } from '../support/canaries.js';
import { runCli, type CliResult } from '../support/cli.js';
import { expectNoChanges, writeManifestFolder } from '../support/e2e.js';
import { startTestServer, type TestCluster } from '../support/server.js';

// validate --format json and apply --format json through the built CLI against `serve`: stdout
// is one JSON document and nothing else (`| jq` works), whatever happens; exit codes as in text.
const BINDPASS = 'canary-bindpass-json-3e8b';

const LDAP = `apiVersion: lockstep/v1
kind: LdapAuth
config:
  url: ldap://ldap.example.com
  binddn: cn=svc,dc=example,dc=com
  bindpass: \${env:LDAP_BINDPASS}
groups:
  admins: { policies: [admin] }
  devs: { policies: [dev] }
users:
  alice: { groups: [admins] }
`;

let cluster: TestCluster;
let dir: string;
let recorder: OutputRecorder;

beforeAll(async () => {
  cluster = await startTestServer();
  dir = await mkdtemp(path.join(tmpdir(), 'lockstep-json-output-'));
});
afterAll(async () => {
  await cluster.server.close();
  await rm(dir, { recursive: true, force: true });
});
afterEach(async () => {
  cluster.server.clearFaults();
  await cluster.raw('DELETE', 'sys/auth/ldap');
  recorder.expectNoCanaries([BINDPASS, cluster.token], 40);
});

async function cli(args: string[], cwd?: string): Promise<CliResult> {
  recorder ??= outputRecorder();
  return recorder.record(await runCli(args, { env: { ...cluster.env, LDAP_BINDPASS: BINDPASS }, ...(cwd ? { cwd } : {}) }));
}

/** stdout as the one JSON document it must be, whole. */
function document<T>(run: CliResult): T {
  try {
    return JSON.parse(run.stdout) as T;
  } catch {
    throw new Error(`stdout is not one JSON document:\n${run.stdout}\nstderr:\n${run.stderr}`);
  }
}

describe('validate --format json', () => {
  it('valid: the verdict and the documents read, exit 0', async () => {
    recorder = outputRecorder();
    const m = await writeManifestFolder(path.join(dir, 'valid'), { 'ldap.yaml': LDAP, 'ns.yaml': 'apiVersion: lockstep/v1\nkind: Namespace\nname: team-a\n' });
    const run = await cli(['validate', m, '--format', 'json']);
    expect(run.code, run.stderr).toBe(0);
    expect(document<JsonValidation>(run)).toEqual({ valid: true, documents: 2, diagnostics: [] });
  });

  it('invalid: every problem located in its file, in the order stderr gives them, exit 1', async () => {
    recorder = outputRecorder();
    const m = await writeManifestFolder(path.join(dir, 'invalid'), {
      'a.yaml': 'apiVersion: lockstep/v1\nkind: LdapAuth\nconfgi: {}\n---\napiVersion: lockstep/v1\nkind: Nope\n',
      'b.yaml': LDAP.replace('${env:LDAP_BINDPASS}', '${env:MISSING_BINDPASS}'),
    });
    const run = await cli(['validate', m, '--format', 'json']);
    expect(run.code).toBe(1);
    const json = document<JsonValidation>(run);
    expect(json.valid).toBe(false);
    expect(json.documents).toBe(3);
    expect(json.diagnostics).toEqual([
      { severity: 'error', origin: 'manifest', message: 'unknown field "confgi" (did you mean "config"?)', file: path.join(m, 'a.yaml'), line: 3, column: 1 },
      { severity: 'error', origin: 'manifest', message: expect.stringContaining('unknown kind "Nope"'), file: path.join(m, 'a.yaml'), line: 6, column: 7 },
      { severity: 'error', origin: 'environment', message: expect.stringContaining('MISSING_BINDPASS'), file: path.join(m, 'b.yaml'), line: 6, column: 13 },
    ]);
    // stderr says the same, one located line each, as in text.
    const located = json.diagnostics.map((d) => `${d.file}:${d.line}:${d.column}: error: ${d.message}`);
    expect(run.stderr.split('\n').slice(0, 3)).toEqual(located);
  });
});

describe('apply --format json', () => {
  it('applied: each change with its outcome, the counts; progress on stderr; the next plan is empty', async () => {
    recorder = outputRecorder();
    const m = await writeManifestFolder(path.join(dir, 'apply'), { 'ldap.yaml': LDAP });
    const run = await cli(['apply', m, '--auto-approve', '--format', 'json']);
    expect(run.code, run.stderr).toBe(0);
    const json = document<JsonApply>(run);
    expect(json.result).toBe('applied');
    expect(json.changes.map((c) => [c.address, c.action, c.outcome])).toEqual([
      ['default:sys/auth/ldap', 'create', 'applied'],
      ['default:auth/ldap/config', 'update', 'applied'],
      ['default:auth/ldap/groups/admins', 'create', 'applied'],
      ['default:auth/ldap/groups/devs', 'create', 'applied'],
      ['default:auth/ldap/users/alice', 'create', 'applied'],
    ]);
    expect(json.summary).toEqual({ add: 4, change: 1, delete: 0, destructive: 0, transition: 0, applied: 5, failed: 0, skipped: 0 });
    // Only the warnings every LDAP plan of these manifests carries (a policy no AclPolicy declares; the access review of a directory not there).
    expect(json.diagnostics.filter((d) => !/^(policy "|access review skipped)/.test(d.message))).toEqual([]);
    expect(run.stderr).toContain('+ default:auth/ldap/users/alice ... done');
    await expectNoChanges(cli, m);

    const again = await cli(['apply', m, '--auto-approve', '--format', 'json']);
    expect(again.code).toBe(0);
    expect(document<JsonApply>(again)).toMatchObject({ result: 'no-changes', changes: [], summary: { applied: 0 } });
  });

  it("failed: the failing change with the server's error (its echo of the secret redacted), what ran and what never started; exit 1; the next apply converges", async () => {
    recorder = outputRecorder();
    const m = await writeManifestFolder(path.join(dir, 'fail'), { 'ldap.yaml': LDAP });
    cluster.server.injectFault({ method: 'POST', path: /^auth\/ldap\/groups\/admins$/, status: 500, times: 100, errors: [`storage exploded near ${BINDPASS}`] });
    const run = await cli(['apply', m, '--auto-approve', '--format', 'json', '--concurrency', '1']);
    expect(run.code).toBe(1);
    const json = document<JsonApply>(run);
    expect(json.result).toBe('failed');
    const byAddress = new Map(json.changes.map((c) => [c.address, c]));
    expect(byAddress.get('default:sys/auth/ldap')?.outcome).toBe('applied');
    expect(byAddress.get('default:auth/ldap/groups/admins')).toMatchObject({ outcome: 'failed', error: expect.stringContaining('storage exploded near (sensitive)') });
    // alice's user depends on nothing that failed but starts after the failure: never started.
    expect(byAddress.get('default:auth/ldap/users/alice')?.outcome).toBe('skipped');
    expect(json.summary.failed).toBe(1);
    expect(json.summary.applied + json.summary.failed + json.summary.skipped).toBe(json.changes.length);
    cluster.server.clearFaults();
    const again = await cli(['apply', m, '--auto-approve', '--format', 'json']);
    expect(again.code, again.stderr).toBe(0);
    expect(document<JsonApply>(again).result).toBe('applied');
    await expectNoChanges(cli, m);
  });

  it('refused: invalid manifests (located), no approval, a plan the engine refuses; nothing changed, exit 1, still one document', async () => {
    recorder = outputRecorder();
    const bad = await writeManifestFolder(path.join(dir, 'bad'), { 'ldap.yaml': LDAP.replace('groups:', 'gruops:') });
    const invalid = await cli(['apply', bad, '--auto-approve', '--format', 'json']);
    expect(invalid.code).toBe(1);
    expect(document<JsonApply>(invalid)).toEqual({
      formatVersion: 1,
      result: 'refused',
      changes: [],
      summary: { add: 0, change: 0, delete: 0, destructive: 0, transition: 0, applied: 0, failed: 0, skipped: 0 },
      diagnostics: [{ severity: 'error', origin: 'manifest', message: expect.stringContaining('unknown field "gruops"'), file: path.join(bad, 'ldap.yaml'), line: 7, column: 1 }],
    });
    expect(invalid.stderr).toContain('error: 1 error in the manifests; nothing was sent to any server');

    const m = await writeManifestFolder(path.join(dir, 'refused'), { 'ldap.yaml': LDAP });
    const unapproved = await cli(['apply', m, '--format', 'json']);
    expect(unapproved.code).toBe(1);
    expect(document<JsonApply>(unapproved)).toMatchObject({ result: 'refused', diagnostics: [{ severity: 'error', message: expect.stringContaining('needs --auto-approve') }] });
    expect((await cluster.raw('GET', 'sys/auth')).body).not.toHaveProperty('data.ldap/');

    // Part of a set: its prune would delete the user the file left out declares.
    const set = await writeManifestFolder(path.join(dir, 'set'), {
      'lockstep.yaml': '',
      'a.yaml': LDAP.replace(/users:\n.*\n/, 'prune: true\n'),
      'b.yaml': 'apiVersion: lockstep/v1\nkind: LdapAuth\nusers:\n  alice: { groups: [admins] }\n',
    });
    expect((await cli(['apply', set, '--auto-approve'])).code).toBe(0);
    const partial = await cli(['apply', path.join(set, 'a.yaml'), '--auto-approve', '--format', 'json']);
    expect(partial.code).toBe(1);
    const json = document<JsonApply>(partial);
    expect(json.result).toBe('refused');
    expect(json.changes).toEqual([expect.objectContaining({ address: 'default:auth/ldap/users/alice', action: 'delete', reason: 'prune', outcome: 'skipped' })]);
    expect(json.diagnostics.filter((d) => d.severity === 'error')).toEqual([expect.objectContaining({ severity: 'error', message: expect.stringContaining('b.yaml') })]);
    expect((await cluster.raw('GET', 'auth/ldap/users/alice')).status).toBe(200);
  });

  it('a saved plan is applied without --auto-approve (it was reviewed), as in text', async () => {
    recorder = outputRecorder();
    const m = await writeManifestFolder(path.join(dir, 'saved', 'm'), { 'ldap.yaml': LDAP });
    const planFile = path.join(dir, 'saved', 'plan.json');
    const plan = await cli(['plan', m, '--out', planFile]);
    expect(plan.code, plan.stderr).toBe(0);
    recorder.add(await readFile(planFile, 'utf8'));
    const run = await cli(['apply', planFile, '--format', 'json']);
    expect(run.code, run.stderr).toBe(0);
    expect(document<JsonApply>(run)).toMatchObject({ result: 'applied', summary: { applied: 5 } });
    await expectNoChanges(cli, m);
  });
});
