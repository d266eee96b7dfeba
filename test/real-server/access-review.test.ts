import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../support/cli.js';
import { expectNoChanges, writeManifestFolder } from '../support/e2e.js';
import { boundLdapAuth } from '../support/ldap-e2e.js';
import { CREW, planetExpressLdif } from '../support/planet-express.js';
import { startRealServer, type RealServer } from '../support/real-server.js';
import { ldapSettingsFor, startSlapd, USERS, type Slapd, type TestUser } from '../support/slapd.js';

/**
 * #23.4 against the real server: the access review of a plan says what `bao login
 * -method=ldap` gives each directory user after the apply (builtin/credential/ldap/backend.go
 * Login, path_login.go, run by the real binary), the same as serve (test/e2e/access-review.test.ts).
 */
let bao: RealServer;
let slapd: Slapd;
let work: string;

beforeAll(async () => {
  [bao, slapd] = await Promise.all([startRealServer(), startSlapd({ ldif: planetExpressLdif() })]);
  work = await mkdtemp(path.join(tmpdir(), 'lockstep-real-access-'));
}, 60_000);
afterAll(async () => {
  await Promise.all([bao?.stop(), slapd?.stop()]);
  if (work) await rm(work, { recursive: true, force: true });
});

const EVERYONE: TestUser[] = [...Object.values(USERS), ...Object.values(CREW)];
const mount = 'planet-express';
const cli = (args: string[]) => runCli(args, { env: { ...bao.env, LDAP_BINDPASS: ldapSettingsFor(slapd).bindpass } });

function manifest(groups: string): Record<string, string> {
  return {
    'ldap.yaml': `${boundLdapAuth(slapd)}  userattr: uid
  groupdn: ou=groups,${slapd.suffix}
  token_policies: [base]
mount: ${mount}
groups:
${groups}users:
  fry: { policies: [coffee], groups: [science] }
prune: true
`,
  };
}

async function loginAll(): Promise<Map<string, string[]>> {
  const out = new Map<string, string[]>();
  for (const user of EVERYONE) {
    const r = await bao.client(['login', '-method=ldap', `-path=${mount}`, '-no-store', '-format=json', `username=${user.uid}`, `password=${user.password}`]);
    if (r.code === 0) out.set(user.uid, [...(JSON.parse(r.stdout) as { auth: { policies: string[] } }).auth.policies].sort());
  }
  return out;
}

interface JsonAccessChange {
  policy: string;
  gained: string[];
  lost: string[];
}

describe('#23.4 the access review against the real server', () => {
  it("lists exactly the users whose `bao login` policies move, as they move", async () => {
    const first = await writeManifestFolder(path.join(work, 'first'), manifest('  crew: { policies: [delivery] }\n  management: { policies: [payroll] }\n'));
    expect((await cli(['apply', first, '--auto-approve'])).code).toBe(0);
    await expectNoChanges(cli, first);
    const before = await loginAll();
    expect(before.get('leela')).toEqual(['base', 'default', 'delivery', 'payroll']);

    const second = await writeManifestFolder(path.join(work, 'second'), manifest('  crew: { policies: [ship, delivery] }\n  science: { policies: [lab] }\n'));
    const plan = await cli(['plan', second, '--format', 'json', '--access-review', 'require']);
    expect(plan.code, plan.stderr).toBe(0);
    const review = (JSON.parse(plan.stdout) as { accessChanges: JsonAccessChange[] }).accessChanges;
    expect(review.map((c) => [c.policy, c.gained, c.lost])).toEqual([
      ['lab', ['amy', 'fry', 'zoidberg'], []],
      ['payroll', [], ['Hermes', 'leela']],
      ['ship', ['bender', 'fry', 'leela'], []],
    ]);

    // The pruned group takes access away: destructive.
    expect((await cli(['apply', second, '--auto-approve', '--allow-destructive'])).code).toBe(0);
    await expectNoChanges(cli, second);
    const after = await loginAll();
    const expected = new Map([...before].map(([u, p]) => [u, new Set(p)]));
    for (const c of review) {
      for (const u of c.gained) expected.get(u)!.add(c.policy);
      for (const u of c.lost) expected.get(u)!.delete(c.policy);
    }
    expect(after).toEqual(new Map([...expected].map(([u, p]) => [u, [...p].sort()])));
  });
});
