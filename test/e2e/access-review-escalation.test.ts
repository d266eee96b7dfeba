import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../support/cli.js';
import { expectNoChanges, writeManifestFolder } from '../support/e2e.js';
import { boundLdapAuth, useLdapE2e } from '../support/ldap-e2e.js';
import { CREW, planetExpressLdif } from '../support/planet-express.js';
import { ldapSettingsFor } from '../support/slapd.js';

/**
 * #23.4: with policy texts known (the run's AclPolicy documents, or the server's), the gains
 * that hand out `sudo`, or write without a deny on a path the plan writes, come first in the
 * review, saying which: text, markdown, JSON `escalation`. What they say is checked by logging
 * a gaining user in on serve after the apply and asking sys/capabilities-self.
 */
const ldap = useLdapE2e({}, { ldif: planetExpressLdif() });
const cli = (args: string[]) => runCli(args, { env: { ...ldap.cluster.env, LDAP_BINDPASS: ldapSettingsFor(ldap.slapd).bindpass } });
let work: string;

beforeAll(async () => {
  work = await mkdtemp(path.join(tmpdir(), 'lockstep-escalation-'));
});
afterAll(async () => {
  await rm(work, { recursive: true, force: true });
});

const policy = (name: string, text: string) => `apiVersion: lockstep/v1\nkind: AclPolicy\nname: ${name}\npolicy: |\n${text.split('\n').map((l) => `  ${l}`).join('\n')}\n`;

/** sudo on sys/*; update on the LDAP groups but a deny there (not called out); read only. */
const POLICIES = [
  policy('ship-admin', 'path "sys/*" {\n  capabilities = ["read", "sudo"]\n}'),
  policy('fenced', 'path "auth/ldap/*" {\n  capabilities = ["update"]\n}\npath "auth/ldap/groups/*" {\n  capabilities = ["deny"]\n}'),
  policy('reader', 'path "auth/ldap/*" {\n  capabilities = ["read", "list"]\n}'),
].join('---\n');
/** Created by this plan: update on every LDAP group, the one the plan changes among them. */
const GROUP_WRITER = policy('group-writer', 'path "auth/ldap/groups/+" {\n  capabilities = ["read", "update"]\n}');

function manifest(crew: string, science: string, extraPolicies = ''): Record<string, string> {
  return {
    'policies.yaml': POLICIES + extraPolicies,
    'ldap.yaml': `${boundLdapAuth(ldap.slapd)}  userattr: uid\n  groupdn: ou=groups,${ldap.slapd.suffix}\ngroups:\n  crew: { policies: [${crew}] }\n  science: { policies: [${science}] }\n`,
  };
}

/** sys/capabilities-self for `paths` with the token of `user`'s LDAP login on serve. */
async function capabilitiesOf(user: { uid: string; password: string }, paths: string[]): Promise<Record<string, string[]>> {
  const login = await ldap.cluster.raw('POST', `auth/ldap/login/${user.uid}`, { password: user.password });
  const token = (login.body as { auth: { client_token: string } }).auth.client_token;
  const res = await fetch(`${ldap.cluster.baseUrl}/sys/capabilities-self`, { method: 'POST', headers: { 'X-Vault-Token': token }, body: JSON.stringify({ paths }) });
  const body = (await res.json()) as { data?: Record<string, string[]> };
  if (!body.data) throw new Error(`capabilities-self answered ${res.status}: ${JSON.stringify(body)}`);
  return Object.fromEntries(Object.entries(body.data).map(([p, caps]) => [p, [...caps].sort()]));
}

describe('#23.4 the gains that escalate are called out first', () => {
  it('sudo anywhere, or deny-free write on a path the plan writes, from the run or the server; proven by the token', async () => {
    // `legacy` exists only on the server (no document): its text is read for the review.
    expect((await ldap.cluster.raw('PUT', 'sys/policies/acl/legacy', { policy: 'path "sys/mounts/*" { capabilities = ["create", "sudo"] }' })).status).toBe(204);
    const first = await writeManifestFolder(path.join(work, 'first'), manifest('delivery', 'lab'));
    expect((await cli(['apply', first, '--auto-approve'])).code).toBe(0);

    const second = await writeManifestFolder(path.join(work, 'second'), manifest('delivery, ship-admin, fenced, reader, legacy', 'lab, group-writer', `---\n${GROUP_WRITER}`));
    const json = await cli(['plan', second, '--format', 'json']);
    expect(json.code, json.stderr).toBe(0);
    const review = (JSON.parse(json.stdout) as { accessChanges: Array<Record<string, unknown>> }).accessChanges;
    const crew = ['bender', 'fry', 'leela'];
    expect(review).toEqual([
      { method: 'default:auth/ldap', policy: 'group-writer', gained: ['amy', 'zoidberg'], lost: [], escalation: { grants: 'write', path: 'auth/ldap/groups/crew' } },
      { method: 'default:auth/ldap', policy: 'legacy', gained: crew, lost: [], escalation: { grants: 'sudo', path: 'sys/mounts/*' } },
      { method: 'default:auth/ldap', policy: 'ship-admin', gained: crew, lost: [], escalation: { grants: 'sudo', path: 'sys/*' } },
      { method: 'default:auth/ldap', policy: 'fenced', gained: crew, lost: [], escalation: null },
      { method: 'default:auth/ldap', policy: 'reader', gained: crew, lost: [], escalation: null },
    ]);

    const text = await cli(['plan', second]);
    const lines = text.stdout.split('\n');
    const review1 = lines.indexOf('Access review (directory users whose login gains or loses a policy):');
    expect(lines.slice(review1 + 1, review1 + 7)).toEqual([
      '  default:auth/ldap',
      '    + group-writer: amy, zoidberg (2 users) (grants write on auth/ldap/groups/crew, which this plan writes)',
      '    + legacy: bender, fry, leela (3 users) (grants sudo (on "sys/mounts/*"))',
      '    + ship-admin: bender, fry, leela (3 users) (grants sudo (on "sys/*"))',
      '    + fenced: bender, fry, leela (3 users)',
      '    + reader: bender, fry, leela (3 users)',
    ]);
    const md = await cli(['plan', second, '--format', 'markdown']);
    expect(md.stdout).toContain('| `default:auth/ldap` | `ship-admin` **grants sudo** on `sys/*` | `bender, fry, leela (3 users)` |  |');
    expect(md.stdout).toContain('| `default:auth/ldap` | `group-writer` **grants write** on `auth/ldap/groups/crew`, which this plan writes |');

    expect((await cli(['apply', second, '--auto-approve'])).code).toBe(0);
    // `legacy` is the server's, in no document.
    await expectNoChanges(cli, second, ['--ignore-unmanaged']);
    // What the call-outs say, as serve decides it for the tokens of users who gained them.
    const fry = await capabilitiesOf(CREW.fry, ['auth/ldap/groups/crew', 'sys/mounts/x', 'sys/health']);
    expect(fry['auth/ldap/groups/crew']).toEqual(['deny']);
    expect(fry['sys/mounts/x']).toEqual(['create', 'sudo']);
    expect(fry['sys/health']).toEqual(['read', 'sudo']);
    const amy = await capabilitiesOf(CREW.amy, ['auth/ldap/groups/crew']);
    expect(amy['auth/ldap/groups/crew']).toEqual(['read', 'update']);
  });

  it("without AclPolicy documents, the server's text of a gained policy is read, once, and decides", async () => {
    await ldap.cluster.raw('DELETE', 'sys/auth/ldap');
    expect((await ldap.cluster.raw('PUT', 'sys/policies/acl/night-shift', { policy: 'path "auth/ldap/groups/*" { capabilities = ["create", "update"] }' })).status).toBe(204);
    const ldapOnly = (crew: string) => ({ 'ldap.yaml': manifest(crew, 'lab')['ldap.yaml']! });
    const first = await writeManifestFolder(path.join(work, 'ldap-first'), ldapOnly('delivery'));
    expect((await cli(['apply', first, '--auto-approve'])).code).toBe(0);
    const second = await writeManifestFolder(path.join(work, 'ldap-second'), ldapOnly('delivery, night-shift'));
    const json = await cli(['plan', second, '--format', 'json', '--log-level', 'debug']);
    expect(json.code, json.stderr).toBe(0);
    const review = (JSON.parse(json.stdout) as { accessChanges: Array<Record<string, unknown>> }).accessChanges;
    expect(review).toEqual([
      { method: 'default:auth/ldap', policy: 'night-shift', gained: ['bender', 'fry', 'leela'], lost: [], escalation: { grants: 'write', path: 'auth/ldap/groups/crew' } },
    ]);
    expect(json.stderr.split('\n').filter((l) => l.includes('sys/policies/acl/night-shift') && l.includes('GET'))).toHaveLength(1);
    expect((await cli(['apply', second, '--auto-approve'])).code).toBe(0);
    await expectNoChanges(cli, second);
  });
});
