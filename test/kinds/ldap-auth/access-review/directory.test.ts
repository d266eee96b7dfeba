import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectFirst, ldapGroupsOf, LoginStepError, userBindDn, userEntryDn, type LoginDirectorySettings } from '../../../../src/adapters/ldap/index.js';
import { directoryUsers, type DirectoryConnectionSettings } from '../../../../src/kinds/ldap-auth/access-review/directory.js';
import { ldapEntriesFor, ldapSettingsFor, startSlapd, type Slapd } from '../../../support/slapd.js';

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
    }),
  });
});
afterAll(async () => slapd?.stop());

const connection = (): DirectoryConnectionSettings => ({ url: slapd.url, tls: { starttls: false, insecureTls: false, caCert: '', clientCert: '', clientKey: '', minVersion: 'tls12', maxVersion: 'tls12' }, connectMs: 5000, requestMs: 5000 });

function settings(s: Partial<LoginDirectorySettings>): LoginDirectorySettings {
  const f = ldapSettingsFor(slapd);
  return { binddn: f.binddn, bindpass: f.bindpass, discoverdn: false, userdn: f.userdn, userattr: 'uid', userfilter: '', upndomain: '', groupdn: f.groupdn, groupfilter: '', groupattr: 'cn', use_token_groups: false, use_pre111_group_cn_behavior: false, anonymous_group_search: false, dereference_aliases: 'never', max_page_size: 0, ...s };
}

/** What one login of `name` finds: its groups, or null where the login fails to find the user. */
async function loginOf(s: LoginDirectorySettings, name: string): Promise<string[] | null> {
  const conn = await connectFirst(slapd.url, connection().tls, { connectMs: 5000, requestMs: 5000 });
  try {
    const bindDn = await userBindDn(conn.client, s, name);
    const userDn = await userEntryDn(conn.client, s, name, bindDn);
    return (await ldapGroupsOf(conn.client, s, userDn, name)).groups;
  } catch (err) {
    if (err instanceof LoginStepError) return null;
    throw err;
  } finally {
    await conn.close();
  }
}

describe('directoryUsers agrees with the login, name by name', () => {
  it.each([
    ['uid', ''],
    ['cn', ''],
    ['uid', '(&(objectClass=inetOrgPerson)(uid={{.Username}}))'],
    ['cn', '(|(cn={{.Username}})(uid={{.Username}}))'],
  ])('userattr %s, userfilter %j', async (userattr, userfilter) => {
    const s = settings({ userattr, userfilter });
    const review = await directoryUsers(connection(), s);
    expect(review.size).toBeGreaterThan(5);
    const logins = new Map<string, string[] | null>();
    for (const name of review.keys()) logins.set(name, await loginOf(s, name));
    expect(review).toEqual(logins);
    // The collisions are there, and the login refuses them: the review did not decide them from the listing.
    if (userattr === 'uid') expect([review.get('strasse'), review.get('dave'), review.get('solo')]).toEqual([null, null, ['more']]);
  });
});
