import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli, type CliResult } from '../support/cli.js';
import { expectNoChanges, writeManifestFolder } from '../support/e2e.js';
import { boundLdapAuth } from '../support/ldap-e2e.js';
import { startRealServer, type RealServer } from '../support/real-server.js';
import { ldapEntriesFor, ldapSettingsFor, startSlapd, type Slapd, type TestUser } from '../support/slapd.js';

// lockstep end to end against a real server of the service's lineage (OpenBao's `bao server
// -dev`, or LOCKSTEP_TEST_SERVER_BIN), its state changed behind lockstep's back with the same
// binary as a client, and logins checked with `bao login -method=ldap` against slapd.

/** The Planet Express crew, in the test directory beside its default people. */
const CREW = {
  fry: { uid: 'fry', cn: 'Philip Fry', password: 'fry-slurm-pw' },
  leela: { uid: 'leela', cn: 'Turanga Leela', password: 'leela-eye-pw' },
  bender: { uid: 'bender', cn: 'Bender Rodriguez', password: 'bender-bite-pw' },
  hermes: { uid: 'Hermes', cn: 'Hermes Conrad', password: 'hermes-limbo-pw' },
  amy: { uid: 'amy', cn: 'Amy Wong', password: 'amy-mars-pw' },
} satisfies Record<string, TestUser>;

/** Canaries: neither may appear anywhere lockstep prints or writes. */
const WRONG_BINDPASS = 'canary-wrong-bindpass-5e1d';
const CLIENT_KEY_ENV = 'LDAP_CLIENT_KEY';

let bao: RealServer;
let slapd: Slapd;
let work: string;
let folderCount = 0;

beforeAll(async () => {
  [bao, slapd] = await Promise.all([
    startRealServer(),
    startSlapd({ ldif: ldapEntriesFor('dc=example,dc=com', {
      users: Object.values(CREW),
      groups: [
        { cn: 'crew', members: ['fry', 'leela', 'bender'] },
        { cn: 'Management', members: ['leela', 'Hermes'] },
      ],
    }) }),
  ]);
  work = await mkdtemp(path.join(tmpdir(), 'lockstep-real-'));
}, 60_000);
afterAll(async () => {
  await Promise.all([bao?.stop(), slapd?.stop()]);
  if (work) await rm(work, { recursive: true, force: true });
});

/** A fresh folder of manifests. */
async function manifests(files: Record<string, string>): Promise<string> {
  return writeManifestFolder(path.join(work, `m${++folderCount}`), files);
}

const outputs: string[] = [];
async function cli(args: string[], env: Record<string, string> = {}): Promise<CliResult> {
  const r = await runCli(args, {
    env: { ...bao.env, LDAP_BINDPASS: ldapSettingsFor(slapd).bindpass, [CLIENT_KEY_ENV]: slapd.clientKey, ...env },
  });
  outputs.push(r.stdout, r.stderr);
  return r;
}

/** plan → apply → plan empty. */
async function converge(m: string, args: string[] = []): Promise<CliResult> {
  const apply = await cli(['apply', m, '--auto-approve', ...args]);
  expect(apply.code, apply.stdout + apply.stderr).toBe(0);
  await expectNoChanges(cli, m);
  return apply;
}

/** The config head that lets the crew log in: slapd's URL, the service account, uid; `mount` after the config lines. */
function loginConfig(mount: string, extra = ''): string {
  return `${boundLdapAuth(slapd)}  userattr: uid
  groupdn: ou=groups,dc=example,dc=com
  groupattr: cn
${extra}mount: ${mount}
`;
}

async function login(mount: string, user: TestUser, namespace?: string): Promise<{ code: number; policies: string[]; stderr: string }> {
  const r = await bao.client(['login', '-method=ldap', `-path=${mount}`, '-no-store', '-format=json', `username=${user.uid}`, `password=${user.password}`], { namespace });
  if (r.code !== 0) return { code: r.code, policies: [], stderr: r.stderr };
  const body = JSON.parse(r.stdout) as { auth: { policies: string[] } };
  return { code: 0, policies: [...body.auth.policies].sort(), stderr: '' };
}

describe('every LDAP config field, against the real server', () => {
  it('applies every field set to a value other than its default (durations, lists and comma strings in every form), then plans no change', async () => {
    const m = await manifests({
      'all.yaml': `apiVersion: lockstep/v1
kind: LdapAuth
mount: corp-ldap-all
config:
  url: ldaps://Ldap1.Example.com:636,ldap://ldap2.example.com
  case_sensitive_names: "true"
  connection_timeout: 1m30s
  request_timeout: 120
  starttls: true
  tls_min_version: tls11
  tls_max_version: tls13
  insecure_tls: true
  certificate: |
${indent(slapd.caCert, 4)}
  client_tls_cert: |
${indent(slapd.clientCert, 4)}
  client_tls_key: \${env:${CLIENT_KEY_ENV}}
  binddn: cn=svc,ou=system,dc=example,dc=com
  bindpass: \${env:LDAP_BINDPASS}
  userdn: ou=people,dc=example,dc=com
  userattr: sAMAccountName
  discoverdn: true
  deny_null_bind: false
  upndomain: example.com
  userfilter: (&(objectClass=person)({{.UserAttr}}={{.Username}}))
  anonymous_group_search: true
  groupfilter: (&(objectClass=group)(member:1.2.840.113556.1.4.1941:={{.UserDN}}))
  groupdn: ou=groups,dc=example,dc=com
  groupattr: memberOf
  username_as_alias: true
  dereference_aliases: always
  max_page_size: "500"
  token_ttl: 1h
  token_max_ttl: 7200
  token_policies: "Ops, default ,Audit"
  token_bound_cidrs: [127.0.0.1/32, 10.0.0.0/8]
  token_explicit_max_ttl: 3h30m
  token_no_default_policy: true
  token_num_uses: 5
  token_period: 0.5h
  token_type: service
groups:
  Ops: { policies: "ops,Readers" }
  audit: { policies: [audit] }
users:
  Fry: { policies: [delivery], groups: "Ops, audit" }
`,
    });
    const plan = await cli(['plan', m, '--detailed-exitcode']);
    expect(plan.code, plan.stderr).toBe(2);
    expect(plan.stdout).toContain('+ default:sys/auth/corp-ldap-all');
    await converge(m);
    const live = await bao.client(['read', '-format=json', 'auth/corp-ldap-all/config']);
    expect(live.code, live.stderr).toBe(0);
    expect((JSON.parse(live.stdout) as { data: Record<string, unknown> }).data).toMatchObject({
      connection_timeout: 90,
      request_timeout: 120,
      token_period: 1800,
      token_explicit_max_ttl: 12600,
      token_bound_cidrs: ['127.0.0.1', '10.0.0.0/8'],
      max_page_size: 500,
      case_sensitive_names: true,
      dereference_aliases: 'always',
    });
  });
});

describe('the crew, against the real server', () => {
  const mount = 'planet-express';
  const crewManifest = (extraConfig = '') => ({
    'config.yaml': loginConfig(mount, `  token_policies: [base]\n${extraConfig}`) + `groups:
  crew: { policies: [delivery, ship] }
  Management: { policies: "payroll, Approvals" }
prune: true
`,
    'users.yaml': `apiVersion: lockstep/v1
kind: LdapAuth
mount: ${mount}
users:
  Fry: { policies: [coffee] }
  amy: { groups: [crew] }
`,
  });

  it('plan, apply, an empty plan; `bao login` as each crew member gives the policies the manifests map them to', async () => {
    const m = await manifests(crewManifest());
    const plan = await cli(['plan', m]);
    expect(plan.code, plan.stderr).toBe(0);
    expect(plan.stdout).toContain(`+ default:auth/${mount}/users/fry`);
    expect(plan.stdout).toContain(`+ default:auth/${mount}/groups/management`);
    await converge(m);

    // base (config) + the directory's groups (crew, Management) + local groups + own policies + default.
    const expected: Record<string, string[]> = {
      fry: ['base', 'coffee', 'default', 'delivery', 'ship'],
      leela: ['approvals', 'base', 'default', 'delivery', 'payroll', 'ship'],
      bender: ['base', 'default', 'delivery', 'ship'],
      hermes: ['approvals', 'base', 'default', 'payroll'],
      amy: ['base', 'default', 'delivery', 'ship'],
    };
    for (const [key, user] of Object.entries(CREW)) {
      const got = await login(mount, user);
      expect(got.code, got.stderr).toBe(0);
      expect(got.policies, user.uid).toEqual(expected[key]);
    }

    const check = await cli(['check', m, '--user', 'leela']);
    expect(check.code, check.stdout + check.stderr).toBe(0);
    expect(check.stdout.toLowerCase()).toContain('management');
  });

  it('drift made with `bao write` exits 2 and shows exactly that field; the apply puts it back', async () => {
    const m = await manifests(crewManifest());
    await converge(m);
    expect((await bao.client(['write', `auth/${mount}/config`, 'token_ttl=2h'])).code).toBe(0);
    // The service keeps only `root` of a list that holds it (policyutil.SanitizePolicies).
    expect((await bao.client(['write', `auth/${mount}/groups/crew`, 'policies=delivery,ship,root'])).code).toBe(0);
    const plan = await cli(['plan', m, '--detailed-exitcode']);
    expect(plan.code, plan.stderr).toBe(2);
    const changed = plan.stdout.split('\n').filter((l) => /^\s+[a-z_]+: .* -> /.test(l)).map((l) => l.trim());
    expect(changed).toEqual(['token_ttl: 7200 -> 0', 'policies: ["root"] -> ["delivery","ship"]']);
    await converge(m);
  });

  it('--prune deletes exactly the objects no manifest declares', async () => {
    const m = await manifests(crewManifest());
    await converge(m);
    for (const p of [`auth/${mount}/groups/rogue`, `auth/${mount}/users/Zoidberg`, `auth/${mount}/users/nibbler`]) {
      expect((await bao.client(['write', p, 'policies=root'])).code).toBe(0);
    }
    const plan = await cli(['plan', m]);
    expect(plan.stdout.match(/^\s+- \S+/gm)?.map((l) => l.trim()).sort()).toEqual([
      `- default:auth/${mount}/groups/rogue`,
      `- default:auth/${mount}/users/nibbler`,
      `- default:auth/${mount}/users/zoidberg`,
    ]);
    await converge(m, ['--allow-destructive']);
    const users = await bao.client(['list', '-format=json', `auth/${mount}/users`]);
    expect(JSON.parse(users.stdout)).toEqual(['amy', 'fry']);
    const groups = await bao.client(['list', '-format=json', `auth/${mount}/groups`]);
    expect(JSON.parse(groups.stdout)).toEqual(['crew', 'management']);
  });

  it('a saved plan is refused after a `bao write`, naming the object that moved', async () => {
    const m = await manifests(crewManifest('  token_max_ttl: 8h\n'));
    const out = path.join(work, 'saved.plan.json');
    const plan = await cli(['plan', m, '--out', out]);
    expect(plan.code, plan.stderr).toBe(0);
    expect((await bao.client(['write', `auth/${mount}/users/fry`, 'policies=coffee,tea'])).code).toBe(0);
    const apply = await cli(['apply', out]);
    expect(apply.code).toBe(1);
    expect(apply.stderr).toContain('stale');
    expect(apply.stderr).toContain(`default:auth/${mount}/users/fry`);
    await converge(m);
  });

  it('write-only bindpass: set, changed (with --sync-secrets) and dropped, as the README says; logins follow it', async () => {
    // Users are searched for under the whole suffix, which takes the service account's bind: without
    // a bindpass the service binds as `uid=NAME,<userdn>` instead (ldaputil getUserBindDN), which
    // does not exist there, so a login shows whether the server holds the right bindpass.
    const searched = (files: Record<string, string>) =>
      Object.fromEntries(Object.entries(files).map(([n, t]) => [n, t.replace(/^ {2}userdn: .*$/m, '  userdn: dc=example,dc=com')]));
    const m = await manifests(searched(crewManifest()));
    await converge(m);
    expect((await login(mount, CREW.fry)).code).toBe(0);

    // Changed: not comparable, so the plan is empty; --sync-secrets sends the new one.
    expect((await cli(['plan', m, '--detailed-exitcode'], { LDAP_BINDPASS: WRONG_BINDPASS })).code).toBe(0);
    const sync = await cli(['apply', m, '--auto-approve', '--sync-secrets'], { LDAP_BINDPASS: WRONG_BINDPASS });
    expect(sync.code, sync.stderr).toBe(0);
    expect((await login(mount, CREW.fry)).stderr).toContain('failed to bind');
    expect((await cli(['apply', m, '--auto-approve', '--sync-secrets'])).code).toBe(0);
    expect((await login(mount, CREW.fry)).code).toBe(0);

    // Dropped: the plan notes it goes empty with the next write; --sync-secrets clears it now.
    const withoutBindpass = searched(crewManifest());
    withoutBindpass['config.yaml'] = withoutBindpass['config.yaml']!.replace(/^ {2}bindpass: .*\n/m, '');
    const dropped = await manifests(withoutBindpass);
    const plan = await cli(['plan', dropped]);
    expect(plan.stdout + plan.stderr).toContain('bindpass');
    expect((await cli(['apply', dropped, '--auto-approve', '--sync-secrets'])).code).toBe(0);
    expect((await login(mount, CREW.fry)).code).not.toBe(0);
    await converge(m, ['--sync-secrets']);
    expect((await login(mount, CREW.fry)).code).toBe(0);
  });

  it('export of a state made with `bao` plans no change', async () => {
    const exportMount = 'made-by-bao';
    expect((await bao.client(['auth', 'enable', `-path=${exportMount}`, 'ldap'])).code).toBe(0);
    const s = ldapSettingsFor(slapd);
    const w = await bao.client([
      'write', `auth/${exportMount}/config`, `url=${s.url}`, `binddn=${s.binddn}`, `bindpass=${s.bindpass}`, `userdn=${s.userdn}`,
      'userattr=uid', 'token_policies=a,B', 'token_ttl=90m', 'token_bound_cidrs=127.0.0.1/32', 'max_page_size=-1', 'case_sensitive_names=true',
    ]);
    expect(w.code, w.stderr).toBe(0);
    await bao.client(['write', `auth/${exportMount}/groups/Engineering`, 'policies=eng, ops']);
    await bao.client(['write', `auth/${exportMount}/users/Leela`, 'groups=Engineering', 'policies=captain']);

    const out = path.join(work, 'export');
    const exported = await cli(['export', '--out', out]);
    expect(exported.code, exported.stderr).toBe(0);
    // What the server never returns (bind passwords) is exported as references to fill in, as a user taking over does.
    const filled: Record<string, string> = {};
    for (const f of await readdir(out)) {
      const text = await readFile(path.join(out, f), 'utf8');
      outputs.push(text);
      for (const [, name] of text.matchAll(/\$\{env:([A-Z0-9_]+)\}/g)) filled[name!] = ldapSettingsFor(slapd).bindpass;
    }
    expect(Object.keys(filled)).toContain('DEFAULT_MADE_BY_BAO_BINDPASS');
    await expectNoChanges((args) => cli(args, filled), out);
  });
});

describe('namespaces, against the real server', () => {
  it('the same mount and names in two namespaces are two sets of objects', async () => {
    for (const ns of ['team-a', 'team-b']) expect((await bao.client(['namespace', 'create', ns])).code).toBe(0);
    const doc = (ns: string, policy: string) => `${loginConfig('ldap')}namespace: ${ns}
groups:
  crew: { policies: [${policy}] }
users:
  fry: { groups: [crew] }
`;
    const m = await manifests({ 'a.yaml': doc('team-a', 'pilot-a'), 'b.yaml': doc('team-b', 'pilot-b') });
    const plan = await cli(['plan', m]);
    expect(plan.code, plan.stderr).toBe(0);
    expect(plan.stdout).toContain('+ default:team-a/auth/ldap/groups/crew');
    expect(plan.stdout).toContain('+ default:team-b/auth/ldap/groups/crew');
    await converge(m);
    expect((await login('ldap', CREW.fry, 'team-a')).policies).toEqual(['default', 'pilot-a']);
    expect((await login('ldap', CREW.fry, 'team-b')).policies).toEqual(['default', 'pilot-b']);
  });
});

describe('secrets, against the real server', () => {
  it('no bind password or client key in anything lockstep printed or wrote', () => {
    const secrets = [ldapSettingsFor(slapd).bindpass, WRONG_BINDPASS, slapd.clientKey.split('\n')[1]!];
    for (const text of outputs) for (const secret of secrets) expect(text).not.toContain(secret);
  });
});

function indent(text: string, n: number): string {
  return text.trim().split('\n').map((l) => ' '.repeat(n) + l).join('\n');
}
