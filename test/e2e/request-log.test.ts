import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { recordIssuedTokens, startAnswerProxy, type AnswerProxy } from '../support/answer-proxy.js';
import { outputRecorder } from '../support/canaries.js';
import { runCli, type CliResult } from '../support/cli.js';
import { expectNoChanges, writeManifestFolder } from '../support/e2e.js';
import { startTestServer, type TestCluster } from '../support/server.js';

// The request log (--log-level debug, LOCKSTEP_LOG=debug) through the built CLI against `serve`:
// one line per request a run sends, exactly those it counts, none holding a secret of the run.
const BINDPASS = 'canary-bindpass-log-6d2a';
/** A user whose name is a secret of the run (it is also the bindpass of another mount): its path must not show it. */
const SECRET_NAME = 'canary-name-in-path-81fe';

const LINE = /^debug: default: (GET|LIST|POST|PATCH|DELETE) (\S+) -> (\d{3}|no answer \(\S+\)) in \d+ms( \(attempt \d+\))?$/;

const MANIFESTS = {
  'ns.yaml': 'apiVersion: lockstep/v1\nkind: Namespace\nname: team-a\n',
  'ldap.yaml': `apiVersion: lockstep/v1
kind: LdapAuth
namespace: team-a
config:
  url: ldap://ldap.example.com
  binddn: cn=svc,dc=example,dc=com
  bindpass: \${env:LDAP_BINDPASS}
groups:
  admins: { policies: [admin] }
users:
  alice: { groups: [admins] }
  ${SECRET_NAME}: { groups: [admins] }
---
apiVersion: lockstep/v1
kind: LdapAuth
mount: other
config:
  url: ldap://ldap.example.com
  bindpass: \${env:OTHER_BINDPASS}
`,
};

let cluster: TestCluster;
let dir: string;

beforeAll(async () => {
  cluster = await startTestServer();
  dir = await mkdtemp(path.join(tmpdir(), 'lockstep-request-log-'));
});
afterAll(async () => {
  await cluster.server.close();
  await rm(dir, { recursive: true, force: true });
});
afterEach(() => cluster.server.clearFaults());

const env = (extra: Record<string, string> = {}): Record<string, string> => ({ ...cluster.env, LDAP_BINDPASS: BINDPASS, OTHER_BINDPASS: SECRET_NAME, ...extra });

function logLines(run: CliResult): string[] {
  return run.stderr.split('\n').filter((l) => l.startsWith('debug: '));
}

/** The request count of the --verbose concurrency summary. */
function summaryCount(run: CliResult): number {
  const m = /^concurrency: default: .*, ([\d,]+) requests?$/m.exec(run.stderr);
  expect(m, run.stderr).not.toBeNull();
  return Number(m![1]!.replaceAll(',', ''));
}

describe('--log-level debug', () => {
  it('plan and apply log every request they send, as many as they count, namespace first; no secret, the name that is one shown as (sensitive)', async () => {
    const recorder = outputRecorder();
    const m = await writeManifestFolder(path.join(dir, 'm'), MANIFESTS);
    const cli = async (args: string[], extra: Record<string, string> = {}) => recorder.record(await runCli(args, { env: env(extra) }));

    const plan = await cli(['plan', m, '--log-level', 'debug', '--verbose']);
    expect(plan.code, plan.stderr).toBe(0);
    const planned = logLines(plan);
    expect(planned.length).toBe(summaryCount(plan));
    for (const line of planned) expect(line).toMatch(LINE);
    expect(planned).toEqual(expect.arrayContaining([expect.stringMatching(/^debug: default: GET sys\/auth -> 200 in \d+ms$/)]));

    const apply = await cli(['apply', m, '--auto-approve', '--verbose'], { LOCKSTEP_LOG: 'debug' });
    expect(apply.code, apply.stderr + apply.stdout).toBe(0);
    const applied = logLines(apply);
    expect(applied.length).toBe(summaryCount(apply));
    for (const line of applied) expect(line).toMatch(LINE);
    // Writes in the namespace, namespace first; the user named by a secret written, its name not shown.
    expect(applied).toEqual(expect.arrayContaining([expect.stringMatching(/^debug: default: POST team-a\/auth\/ldap\/groups\/admins -> 204 in \d+ms$/)]));
    expect(applied).toEqual(expect.arrayContaining([expect.stringMatching(/^debug: default: POST team-a\/auth\/ldap\/users\/\(sensitive\) -> 204 in \d+ms$/)]));
    expect((await cluster.raw('GET', `team-a/auth/ldap/users/${SECRET_NAME}`)).status).toBe(200);

    await expectNoChanges(cli, m);
    // Without the level, no line of the log.
    const quiet = await cli(['plan', m]);
    expect(logLines(quiet)).toEqual([]);
    recorder.expectNoCanaries([BINDPASS, SECRET_NAME, cluster.token], 2000);
  });

  it('a retried request shows each attempt, numbered from the second', async () => {
    const m = await writeManifestFolder(path.join(dir, 'retry'), { 'ldap.yaml': 'apiVersion: lockstep/v1\nkind: LdapAuth\nmount: retried\nconfig: { url: "ldap://ldap.example.com" }\n' });
    cluster.server.injectFault({ method: 'GET', path: /^sys\/auth$/, status: 503, times: 1, errors: ['sealed'] });
    const run = await runCli(['plan', m, '--log-level', 'debug', '--verbose'], { env: env() });
    expect(run.code, run.stderr).toBe(0);
    const lines = logLines(run);
    expect(lines.length).toBe(summaryCount(run));
    const reads = lines.filter((l) => / GET sys\/auth /.test(l));
    expect(reads).toEqual([expect.stringMatching(/ -> 503 in \d+ms$/), expect.stringMatching(/ -> 200 in \d+ms \(attempt 2\)$/)]);
  });
});

describe('--log-level debug with an AppRole login', () => {
  let proxy: AnswerProxy;
  const loginTokens: string[] = [];
  beforeAll(async () => {
    for (const [p, body] of [
      ['sys/auth/approle', { type: 'approle' }],
      ['auth/approle/role/deploy', { token_policies: 'lockstep', token_ttl: '10m' }],
    ] as const) {
      const res = await cluster.raw('POST', p, body);
      expect(res.status, JSON.stringify(res.body)).toBeLessThan(300);
    }
    proxy = await startAnswerProxy(cluster.baseUrl);
    recordIssuedTokens(proxy, ['POST auth/approle/login'], loginTokens);
  });
  afterAll(async () => {
    await proxy.close();
  });

  it('logs the login, the reads with its token and the revocation; never the role_id, the secret_id or the token', async () => {
    const roleId = ((await cluster.raw('GET', 'auth/approle/role/deploy/role-id')).body as { data: { role_id: string } }).data.role_id;
    const secretId = ((await cluster.raw('POST', 'auth/approle/role/deploy/secret-id', {})).body as { data: { secret_id: string } }).data.secret_id;
    const m = await writeManifestFolder(path.join(dir, 'approle'), { 'ldap.yaml': 'apiVersion: lockstep/v1\nkind: LdapAuth\nmount: approle-run\nconfig: { url: "ldap://ldap.example.com" }\n' });
    const recorder = outputRecorder();
    // serve's AppRole tokens hold no ACL policy granting reads: the plan is refused (403), which
    // also sends lookup-self for the message. Every one of those requests is in the log.
    const run = recorder.record(
      await runCli(['plan', m, '--log-level', 'debug'], {
        env: { SERVICE_ADDR: proxy.baseUrl, SERVICE_AUTH_METHOD: 'approle', SERVICE_AUTH_ROLE_ID: roleId, SERVICE_AUTH_SECRET_ID: secretId },
      }),
    );
    const lines = logLines(run);
    for (const line of lines) expect(line).toMatch(LINE);
    // Exactly the requests the server saw (in the order answers came back, so compared sorted).
    expect(lines.map((l) => /^debug: default: (\S+ \S+) -> /.exec(l)![1]).sort()).toEqual([...proxy.requests].sort());
    expect(lines[0]).toMatch(/^debug: default: POST auth\/approle\/login -> 200 in \d+ms$/);
    expect(lines.at(-1)).toMatch(/^debug: default: POST auth\/token\/revoke-self -> 204 in \d+ms$/);
    expect(loginTokens).toHaveLength(1);
    recorder.expectNoCanaries([roleId, secretId, loginTokens[0]!], 200);
  });
});
