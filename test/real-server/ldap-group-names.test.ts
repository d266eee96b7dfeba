import { boundLdapAuth } from '../support/ldap-e2e.js';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli, type CliResult } from '../support/cli.js';
import { expectNoChanges, writeManifestFolder } from '../support/e2e.js';
import { binaryClient, startRealServer, type RealServer } from '../support/real-server.js';
import { startTestServer, type TestCluster } from '../support/server.js';
import { ldapSettingsFor, startSlapd, USERS, userDn, type Slapd } from '../support/slapd.js';

// The LDAP login's group names (sdk/helper/ldaputil/client.go GetLdapGroups, getCN) when a group
// entry lacks groupattr, with and without use_pre111_group_cn_behavior: the same manifests
// applied by lockstep to `lockstep serve` and to the real server, then `bao login` as alice on
// each; the policies of the groups her login resolves to show which names were derived.

const SUFFIX = 'dc=example,dc=com';
const NAMED = `ou=named,${SUFFIX}`;
const alice = userDn(SUFFIX, USERS.alice.uid);

/**
 * Groups of alice under ou=named, their names read from `description` (groupattr): two without
 * one (added as `cn=` and `CN=`; slapd answers both DNs with `cn`), two whose description is a
 * DN (`cn=`, `CN=`), one a plain name, and an entry whose DN has no CN at all.
 */
const DIRECTORY = `dn: ${NAMED}
objectClass: organizationalUnit
ou: named

dn: cn=plain,${NAMED}
objectClass: groupOfNames
cn: plain
member: ${alice}

dn: CN=Upper,${NAMED}
objectClass: groupOfNames
cn: Upper
member: ${alice}

dn: cn=described,${NAMED}
objectClass: groupOfNames
cn: described
description: cn=Via-Value,ou=elsewhere,${SUFFIX}
member: ${alice}

dn: cn=capital,${NAMED}
objectClass: groupOfNames
cn: capital
description: CN=Capital,ou=elsewhere,${SUFFIX}
member: ${alice}

dn: cn=texted,${NAMED}
objectClass: groupOfNames
cn: texted
description: Text Name
member: ${alice}

dn: ou=team,${NAMED}
objectClass: organizationalUnit
objectClass: extensibleObject
ou: team
member: ${alice}
`;

/** Every name a group of DIRECTORY may be derived as, and the policy each maps to. */
const NAME_POLICIES: Record<string, string> = {
  plain: 'plain-cn',
  [`cn=plain,${NAMED}`]: 'plain-dn',
  Upper: 'upper-cn',
  [`CN=Upper,${NAMED}`]: 'upper-dn',
  'Via-Value': 'value-cn',
  [`cn=Via-Value,ou=elsewhere,${SUFFIX}`]: 'value-dn',
  Capital: 'capital-cn',
  [`CN=Capital,ou=elsewhere,${SUFFIX}`]: 'capital-dn',
  'Text Name': 'text',
  [`ou=team,${NAMED}`]: 'team-dn',
};

let bao: RealServer;
let serve: TestCluster;
let slapd: Slapd;
let work: string;

beforeAll(async () => {
  [bao, serve, slapd] = await Promise.all([startRealServer(), startTestServer(), startSlapd({ ldif: DIRECTORY })]);
  work = await mkdtemp(path.join(tmpdir(), 'lockstep-group-names-'));
}, 60_000);
afterAll(async () => {
  await Promise.all([bao?.stop(), serve?.server.close(), slapd?.stop()]);
  if (work) await rm(work, { recursive: true, force: true });
});

function manifest(mount: string, extraConfig: string): string {
  const groups = Object.entries(NAME_POLICIES)
    .filter(([name]) => !name.includes(','))
    .map(([name, policy]) => `  ${JSON.stringify(name)}: { policies: [${policy}] }`);
  return `${boundLdapAuth(slapd)}  userattr: uid
  groupdn: ${NAMED}
  groupattr: description
${extraConfig}groups:
${groups.join('\n')}
mount: ${mount}
`;
}

interface Target {
  name: string;
  env: Record<string, string>;
  bao: RealServer['client'];
  raw(method: string, path: string, body?: unknown): Promise<{ status: number }>;
}

const targets = (): Target[] => [
  { name: 'serve', env: serve.env, bao: binaryClient(serve.baseUrl.replace(/\/v1$/, ''), serve.token), raw: (...a) => serve.raw(...a) },
  { name: 'bao', env: bao.env, bao: (...a) => bao.client(...a), raw: (m, p, b) => bao.raw(m, p, b) },
];

/**
 * The config and the groups named without a comma by lockstep, an empty plan after; the groups
 * named by a whole DN (which lockstep refuses: a user's groups are a comma-separated list)
 * written behind its back.
 */
async function configure(target: Target, mount: string, extraConfig: string): Promise<void> {
  await converge(target, { 'ldap.yaml': manifest(mount, extraConfig) });
  for (const [name, policy] of Object.entries(NAME_POLICIES).filter(([n]) => n.includes(','))) {
    expect((await target.raw('POST', `auth/${mount}/groups/${name}`, { policies: policy })).status).toBe(204);
  }
}

let folders = 0;
async function converge(target: Target, files: Record<string, string>): Promise<void> {
  const m = await writeManifestFolder(path.join(work, `m${++folders}`), files);
  const cli = (args: string[]): Promise<CliResult> => runCli(args, { env: { ...target.env, LDAP_BINDPASS: ldapSettingsFor(slapd).bindpass } });
  const apply = await cli(['apply', m, '--auto-approve']);
  expect(apply.code, apply.stdout + apply.stderr).toBe(0);
  await expectNoChanges(cli, m);
}

/** The policies of alice's login, without `default`. */
async function policiesOfAlice(target: Target, mount: string): Promise<string[]> {
  const r = await target.bao(['login', '-method=ldap', `-path=${mount}`, '-no-store', '-format=json', `username=alice`, `password=${USERS.alice.password}`]);
  expect(r.code, r.stderr).toBe(0);
  const body = JSON.parse(r.stdout) as { auth: { policies: string[] } };
  return body.auth.policies.filter((p) => p !== 'default').sort();
}

describe('group names of a login when a group entry lacks groupattr (ldaputil client.go GetLdapGroups, getCN)', () => {
  it.each(['serve', 'bao'])('on %s: the CN of the DN in any case, a DN without CN whole', async (name) => {
    const target = targets().find((t) => t.name === name)!;
    await configure(target, 'names-new', '');
    expect(await policiesOfAlice(target, 'names-new')).toEqual(['capital-cn', 'plain-cn', 'team-dn', 'text', 'upper-cn', 'value-cn']);
  });

  it.each(['serve', 'bao'])('on %s, use_pre111_group_cn_behavior: only a `CN` written in capitals is taken, other DNs stay whole', async (name) => {
    const target = targets().find((t) => t.name === name)!;
    await configure(target, 'names-pre111', '  use_pre111_group_cn_behavior: true\n');
    expect(await policiesOfAlice(target, 'names-pre111')).toEqual(['capital-cn', 'plain-dn', 'team-dn', 'text', 'upper-dn', 'value-dn']);
  });
});

describe('groupattr matched by the exact name the directory answers with (go-ldap Entry.GetAttributeValues)', () => {
  it.each(['serve', 'bao'])('on %s: groupattr DESCRIPTION finds no values (slapd answers `description`), so every entry is named by its DN', async (name) => {
    const target = targets().find((t) => t.name === name)!;
    await configure(target, 'names-case', '');
    expect(await target.raw('POST', 'auth/names-case/config', { groupattr: 'DESCRIPTION' })).toMatchObject({ status: 204 });
    // described and texted are named by their own CN now, which no group of the mount maps.
    expect(await policiesOfAlice(target, 'names-case')).toEqual(['capital-cn', 'plain-cn', 'team-dn', 'upper-cn']);
  });
});
