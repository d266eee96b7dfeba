import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { outputRecorder } from '../support/canaries.js';
import { runCli } from '../support/cli.js';
import { expectNoChanges, writeManifestFolder } from '../support/e2e.js';
import { boundLdapAuth, useLdapE2e } from '../support/ldap-e2e.js';
import { CREW, planetExpressLdif } from '../support/planet-express.js';
import { ldapSettingsFor, USERS, type TestUser } from '../support/slapd.js';

/**
 * #23.4-5: the access review of a plan, on the Planet Express directory (slapd) and `serve`.
 * What the review says is checked by logging in: every directory user before the apply and
 * after it, through serve's login (builtin/credential/ldap/path_login.go, backend.go Login),
 * whose token's policies must have moved exactly as the review's lines say.
 */
const ldap = useLdapE2e({}, { ldif: planetExpressLdif() });
const recorded = outputRecorder();
const cli = async (args: string[], env: Record<string, string> = {}) =>
  recorded.record(await runCli(args, { env: { ...ldap.cluster.env, LDAP_BINDPASS: ldapSettingsFor(ldap.slapd).bindpass, ...env } }));
let work: string;
let folders = 0;

beforeAll(async () => {
  work = await mkdtemp(path.join(tmpdir(), 'lockstep-access-'));
});
afterAll(async () => {
  await rm(work, { recursive: true, force: true });
});
beforeEach(async () => {
  await ldap.cluster.raw('DELETE', 'sys/auth/ldap');
});

/** Every directory user who can log in: the default people and the crew. */
const EVERYONE: TestUser[] = [...Object.values(USERS), ...Object.values(CREW)];

function manifest(groups: string, extraConfig = ''): Record<string, string> {
  return {
    'ldap.yaml': `${boundLdapAuth(ldap.slapd)}  userattr: uid
  groupdn: ou=groups,${ldap.slapd.suffix}
  token_policies: [base]
${extraConfig}groups:
${groups}users:
  fry: { policies: [coffee] }
prune: true
`,
  };
}

async function folder(files: Record<string, string>): Promise<string> {
  return writeManifestFolder(path.join(work, `m${++folders}`), files);
}

/** Each directory user's token policies from serve's login, sorted; missing for one whose login fails. */
async function loginAll(): Promise<Map<string, string[]>> {
  const out = new Map<string, string[]>();
  for (const user of EVERYONE) {
    const r = await ldap.cluster.raw('POST', `auth/ldap/login/${user.uid}`, { password: user.password });
    if (r.status !== 200) continue;
    out.set(user.uid, [...(r.body as { auth: { policies: string[] } }).auth.policies].sort());
  }
  return out;
}

interface JsonAccessChange {
  method: string;
  policy: string;
  gained: string[];
  lost: string[];
}

/** `before` moved by the review's lines: what each user's login must give after the apply. */
function expectedAfter(before: ReadonlyMap<string, string[]>, review: readonly JsonAccessChange[]): Map<string, string[]> {
  const out = new Map([...before].map(([u, p]) => [u, new Set(p)]));
  for (const change of review) {
    for (const u of change.gained) (out.get(u) ?? out.set(u, new Set()).get(u)!).add(change.policy);
    for (const u of change.lost) out.get(u)?.delete(change.policy);
  }
  return new Map([...out].filter(([, p]) => p.size > 0).map(([u, p]) => [u, [...p].sort()]));
}

describe('#23.4 the access review, proven by logging in', () => {
  it("a change to a group's policies lists exactly the users who log in with that group; their logins after the apply agree", async () => {
    const first = await folder(manifest('  crew: { policies: [delivery] }\n  management: { policies: [payroll] }\n'));
    expect((await cli(['apply', first, '--auto-approve'])).code).toBe(0);
    await expectNoChanges(cli, first);
    const before = await loginAll();
    expect(before.get('bender')).toEqual(['base', 'default', 'delivery']);

    // crew gains ship and loses delivery; management goes (pruned); science appears.
    const second = await folder(manifest('  crew: { policies: [ship] }\n  science: { policies: [lab] }\n'));
    const text = await cli(['plan', second]);
    expect(text.code, text.stderr).toBe(0);
    expect(text.stdout).toContain('Access review (directory users whose login gains or loses a policy):');
    expect(text.stdout).toContain('    + lab: amy, zoidberg (2 users)');
    expect(text.stdout).toContain('    + ship: bender, fry, leela (3 users)');
    expect(text.stdout).toContain('    - delivery: bender, fry, leela (3 users)');
    expect(text.stdout).toContain('    - payroll: Hermes, leela (2 users)');

    const json = await cli(['plan', second, '--format', 'json']);
    const review = (JSON.parse(json.stdout) as { accessChanges: JsonAccessChange[] }).accessChanges;
    expect(review.map((c) => c.policy)).toEqual(['delivery', 'lab', 'payroll', 'ship']);
    expect(new Set(review.map((c) => c.method))).toEqual(new Set(['default:auth/ldap']));

    // The pruned group takes access away: destructive.
    expect((await cli(['apply', second, '--auto-approve', '--allow-destructive'])).code).toBe(0);
    await expectNoChanges(cli, second);
    expect(await loginAll()).toEqual(expectedAfter(before, review));
  });

  it('a config change (token_no_default_policy) is reviewed the same way; markdown has the table', async () => {
    const first = await folder(manifest('  crew: { policies: [delivery] }\n'));
    expect((await cli(['apply', first, '--auto-approve'])).code).toBe(0);
    const before = await loginAll();

    // token_no_default_policy: every user who logs in loses `default`, nothing else moves.
    const second = await folder(manifest('  crew: { policies: [delivery] }\n', '  token_no_default_policy: true\n'));
    const json = await cli(['plan', second, '--format', 'json']);
    const review = (JSON.parse(json.stdout) as { accessChanges: JsonAccessChange[] }).accessChanges;
    expect(review).toEqual([
      { method: 'default:auth/ldap', policy: 'default', gained: [], lost: [...before.keys()].sort(), escalation: null },
    ]);
    const md = await cli(['plan', second, '--format', 'markdown']);
    expect(md.stdout).toContain('| Method | Policy | Gained | Lost |');
    expect(md.stdout).toContain('**Access review**: 1 policy changes hands for 13 directory users');
    expect(md.stdout).toMatch(/^\| `default:auth\/ldap` \| `default` \| {2}\| `Dave, Hermes, alice, [^`]*, … \(13 users\)` \|$/m);

    // The pruned group takes access away: destructive.
    expect((await cli(['apply', second, '--auto-approve', '--allow-destructive'])).code).toBe(0);
    expect(await loginAll()).toEqual(expectedAfter(before, review));
  });
});

describe('#23.5 when the directory cannot be read', () => {
  const unreachable = (m: Record<string, string>) => ({ 'ldap.yaml': m['ldap.yaml']!.replace(/url: \S+/, 'url: ldap://127.0.0.1:1') });

  it('the plan still prints, with one warning saying why; require makes it an error; off does not read', async () => {
    const m = await folder(unreachable(manifest('  crew: { policies: [delivery] }\n')));
    const auto = await cli(['plan', m]);
    expect(auto.code, auto.stderr).toBe(0);
    expect(auto.stdout).toContain('+ default:auth/ldap/groups/crew');
    expect(auto.stdout).not.toContain('Access review');
    const warnings = auto.stderr.split('\n').filter((l) => l.includes('access review'));
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toMatch(/^warning: default:auth\/ldap: access review skipped: failed to connect to any LDAP server: ldap:\/\/127\.0\.0\.1:1: /);

    const required = await cli(['plan', m, '--access-review', 'require']);
    expect(required.code).toBe(1);
    expect(required.stderr).toMatch(/^error: default:auth\/ldap: access review failed \(--access-review require\): failed to connect/m);

    const off = await cli(['plan', m, '--access-review', 'off']);
    expect(off.code).toBe(0);
    expect(off.stderr).not.toContain('access review');
  });

  it('a wrong bind password: skipped saying the bind failed, the password in no output', async () => {
    const canary = 'canary-review-bindpass-9c2e';
    const m = await folder(manifest('  crew: { policies: [delivery] }\n'));
    const r = await cli(['plan', m, '--format', 'json'], { LDAP_BINDPASS: canary });
    expect(r.code).toBe(0);
    const plan = JSON.parse(r.stdout) as { accessChanges: unknown[]; diagnostics: Array<{ message: string }> };
    expect(plan.accessChanges).toEqual([]);
    expect(plan.diagnostics.map((d) => d.message).filter((m) => m.startsWith('access review'))).toEqual([expect.stringMatching(/^access review skipped: invalid credentials \(LDAP result 49\)/)]);
    recorded.expectNoCanaries([canary, ldapSettingsFor(ldap.slapd).bindpass], 1000);
  });
});
