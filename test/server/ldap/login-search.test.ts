import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { defaultLdapConfig, type LdapConfig } from '../../../src/server/ldap/config.js';
import { ldapLogin, USER_BIND_FAILED } from '../../../src/server/ldap/login.js';
import { ldapSettingsFor, PAGED_GROUP_COUNT, startSlapd, USERS, userDn, type Slapd } from '../../support/slapd.js';

let slapd: Slapd;
beforeAll(async () => {
  // A server limit of 10 entries per search; paged searches may return any total.
  slapd = await startSlapd({ sizeLimit: 'size.soft=10 size.hard=10 size.prtotal=unlimited' });
});
afterAll(async () => {
  await slapd?.stop();
});

function config(overrides: Partial<LdapConfig> = {}): LdapConfig {
  return { ...defaultLdapConfig(), ...ldapSettingsFor(slapd), connection_timeout: 5, request_timeout: 10, ...overrides };
}

describe('ldapLogin: paged group search', () => {
  it('reads every group of a user in more groups than the size limit with max_page_size', async () => {
    const out = await ldapLogin(config({ max_page_size: 5 }), 'paula', USERS.paula.password);
    expect(out.ok).toBe(true);
    if (!out.ok) return;
    expect(out.ldapGroups).toHaveLength(PAGED_GROUP_COUNT);
    expect(out.ldapGroups).toContain('paged-01');
    expect(out.ldapGroups).toContain(`paged-${PAGED_GROUP_COUNT}`);
  });

  it('without paging the same search hits the server size limit and the login fails', async () => {
    const out = await ldapLogin(config({ max_page_size: 0 }), 'paula', USERS.paula.password);
    expect(out).toMatchObject({ ok: false, status: 400 });
    expect(!out.ok && out.message).toMatch(/^ldap operation failed: LDAP search failed .*size limit exceeded/);
  });
});

describe('ldapLogin: dereference_aliases', () => {
  // ou=aliases holds an alias entry uid=alice pointing at the real alice in ou=people.
  const viaAliasEntry = (deref: LdapConfig['dereference_aliases']) =>
    ldapLogin(config({ userdn: `ou=aliases,${slapd.suffix}`, dereference_aliases: deref }), 'alice', USERS.alice.password);
  // ou=staff is itself an alias of ou=people.
  const viaAliasBase = (deref: LdapConfig['dereference_aliases']) =>
    ldapLogin(config({ userdn: `ou=staff,${slapd.suffix}`, dereference_aliases: deref }), 'alice', USERS.alice.password);
  const alice = () => ({ ok: true, userDn: userDn(slapd.suffix, 'alice') });
  const denied = { ok: false, status: 400, message: USER_BIND_FAILED };

  it('never: the alias entry itself is found and cannot be bound as', async () => {
    expect(await viaAliasEntry('never')).toEqual(denied);
    expect(await viaAliasBase('never')).toEqual(denied);
  });

  it('searching and always dereference aliases found in the search', async () => {
    expect(await viaAliasEntry('searching')).toMatchObject(alice());
    expect(await viaAliasEntry('always')).toMatchObject(alice());
    expect(await viaAliasEntry('finding')).toEqual(denied);
  });

  it('finding and always dereference an alias search base', async () => {
    expect(await viaAliasBase('finding')).toMatchObject(alice());
    expect(await viaAliasBase('always')).toMatchObject(alice());
  });
});
