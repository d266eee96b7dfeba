import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectFirst, ldapGroupsOf, LoginStepError, userBindDn, userEntryDn, type LoginDirectorySettings } from '../../../../src/adapters/ldap/index.js';
import { directoryUsers, type DirectoryConnectionSettings } from '../../../../src/kinds/ldap-auth/access-review/directory.js';
import { ldapEntriesFor, ldapSettingsFor, startSlapd, type Slapd } from '../../../support/slapd.js';
import { loginSettings } from './login-settings.support.js';

/**
 * The review's directory read (a pool of connections, the user's DN from the listing where it
 * is the login's own search) finds exactly what logging each name in finds, one login at a
 * time on its own connection, on a directory whose names collide under cn's and uid's
 * matching rules (case, ß, spaces) and repeat across OUs.
 */
let slapd: Slapd;
beforeAll(async () => {
  slapd = await startSlapd({
    ldif: ldapEntriesFor('dc=example,dc=com', {
      ous: ['ou=more,ou=people'],
      users: [
        { uid: 'strasse', cn: 'Strasse', password: 'x' },
        { uid: 'STRASSE', cn: 'Straße', password: 'x', ou: 'more,ou=people' },
        { uid: 'dave', cn: 'dave', password: 'x', ou: 'more,ou=people' },
        { uid: 'ann lee', cn: 'Ann  Lee', password: 'x' },
        { uid: 'solo', cn: 'Solo Only', password: 'x' },
      ],
      groups: [{ cn: 'more', members: ['strasse', 'solo'] }],
    }) +
      // The same members written otherwise: equal to the login's DN or name by the matching rule, not byte for byte.
      `dn: cn=spelled,ou=groups,dc=example,dc=com
objectClass: groupOfNames
cn: spelled
member: UID=Solo, OU=People,dc=example,dc=com

dn: cn=shouting,ou=groups,dc=example,dc=com
objectClass: posixGroup
cn: shouting
gidNumber: 7001
memberUid: CAROL
memberUid: bob

`,
  });
});
afterAll(async () => slapd?.stop());

const connection = (): DirectoryConnectionSettings => ({ url: slapd.url, tls: { starttls: false, insecureTls: false, caCert: '', clientCert: '', clientKey: '', minVersion: 'tls12', maxVersion: 'tls12' }, connectMs: 5000, requestMs: 5000 });

function settings(s: Partial<LoginDirectorySettings>): LoginDirectorySettings {
  const f = ldapSettingsFor(slapd);
  return loginSettings({ binddn: f.binddn, bindpass: f.bindpass, userdn: f.userdn, groupdn: f.groupdn, ...s });
}

/** What one login of `name` finds: its groups, or null where the login fails to find the user. */
async function loginOf(s: LoginDirectorySettings, name: string): Promise<string[] | null> {
  const conn = await connectFirst(slapd.url, connection().tls, { connectMs: 5000, requestMs: 5000 });
  try {
    const bindDn = await userBindDn(conn.client, s, name);
    const userDn = await userEntryDn(conn.client, s, name, bindDn);
    // anonymous_group_search: the login searches the groups unbound (backend.go Login).
    if (s.anonymous_group_search) await conn.client.bind('', '');
    return (await ldapGroupsOf(conn.client, s, userDn, name)).groups;
  } catch (err) {
    if (err instanceof LoginStepError) return null;
    throw err;
  } finally {
    await conn.close();
  }
}

/** Each user's groups in one order: the directory answers them in no meaningful one, and a login's policies are a set. */
function sorted(users: ReadonlyMap<string, readonly string[] | null>): Map<string, string[] | null> {
  return new Map([...users].map(([name, groups]) => [name, groups && [...groups].sort()]));
}

describe('directoryUsers agrees with the login, name by name', () => {
  it.each([
    ['uid', '', ''],
    ['cn', '', ''],
    ['uid', '(&(objectClass=inetOrgPerson)(uid={{.Username}}))', '(member={{.UserDN}})'],
    ['cn', '(|(cn={{.Username}})(uid={{.Username}}))', '(|(memberUid={{.Username}})(uniqueMember={{.UserDN}}))'],
    ['uid', '', '(&(objectClass=groupOfNames)(member={{.UserDN}}))'],
  ])('userattr %s, userfilter %j, groupfilter %j', async (userattr, userfilter, groupfilter) => {
    const s = settings({ userattr, userfilter, groupfilter });
    const review = await directoryUsers(connection(), s);
    expect(review.size).toBeGreaterThan(5);
    const logins = new Map<string, string[] | null>();
    for (const name of review.keys()) logins.set(name, await loginOf(s, name));
    expect(sorted(review)).toEqual(sorted(logins));
    // The collisions are there, and the login refuses them: the review did not decide them from the listing.
    if (userattr === 'uid') expect([review.get('strasse'), review.get('dave')]).toEqual([null, null]);
    if (userattr === 'uid' && groupfilter === '') expect([...(review.get('solo') ?? [])].sort()).toEqual(['more', 'spelled']);
  });

  it('max_page_size: each user its own paged group search, one paged search a connection at a time (paula has 30 groups)', async () => {
    const s = settings({ groupfilter: '(&(objectClass=groupOfNames)(member={{.UserDN}}))', max_page_size: 5 });
    const review = await directoryUsers(connection(), s);
    const logins = new Map<string, string[] | null>();
    for (const name of review.keys()) logins.set(name, await loginOf(s, name));
    expect(sorted(review)).toEqual(sorted(logins));
    expect(review.get('paula')).toHaveLength(30);
    // Each user searched for, those given the same groups share one list (the review keys its policies by the list).
    const byText = new Map<string, readonly string[]>();
    for (const groups of review.values()) {
      if (!groups) continue;
      const first = byText.get(JSON.stringify(groups)) ?? byText.set(JSON.stringify(groups), groups).get(JSON.stringify(groups));
      expect(groups).toBe(first);
    }
    expect(byText.size).toBeLessThan([...review.values()].filter(Boolean).length);
  });

  it('anonymous_group_search: the groups only authenticated users may read are found by neither', async () => {
    const s = settings({ anonymous_group_search: true });
    const review = await directoryUsers(connection(), s);
    const logins = new Map<string, string[] | null>();
    for (const name of review.keys()) logins.set(name, await loginOf(s, name));
    expect(sorted(review)).toEqual(sorted(logins));
    expect(review.get('alice')).not.toContain('secret-team');
  });
});
