import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkLdapConfig, type Finding, type LdapCheckConfig } from '../../src/check/ldap.js';
import { Secret } from '../../src/core/secret.js';
import { ldapSettingsFor, SERVICE_ACCOUNT, startSlapd, userDn, type Slapd } from '../support/slapd.js';

let slapd: Slapd;
beforeAll(async () => {
  slapd = await startSlapd();
});
afterAll(async () => {
  await slapd?.stop();
});

function config(overrides: Partial<LdapCheckConfig> = {}): LdapCheckConfig {
  const s = ldapSettingsFor(slapd);
  return {
    ...s,
    bindpass: new Secret(SERVICE_ACCOUNT.password, 'env:LDAP_BINDPASS'),
    userfilter: '',
    upndomain: '',
    groupfilter: '',
    groupattr: 'cn',
    starttls: false,
    insecure_tls: false,
    certificate: '',
    tls_min_version: 'tls12',
    tls_max_version: 'tls12',
    connection_timeout: 2,
    request_timeout: 5,
    dereference_aliases: 'never',
    max_page_size: 0,
    discoverdn: false,
    anonymous_group_search: false,
    ...overrides,
  };
}

const messages = (findings: Finding[], ok?: boolean) =>
  findings.filter((f) => ok === undefined || f.ok === ok).map((f) => f.message);

describe('checkLdapConfig', () => {
  it('succeeds against a reachable, correctly configured server', async () => {
    const findings = await checkLdapConfig(config(), {});
    expect(findings.every((f) => f.ok && f.subject === slapd.url)).toBe(true);
    expect(messages(findings)).toEqual([
      'connected (no TLS)',
      `bind as ${SERVICE_ACCOUNT.rdn},${slapd.suffix} succeeded`,
      `userdn ou=people,${slapd.suffix} exists`,
      `groupdn ou=groups,${slapd.suffix} exists`,
    ]);
  });

  it('reports the TLS protocol of an ldaps connection', async () => {
    const findings = await checkLdapConfig(config({ url: slapd.ldapsUrl, certificate: slapd.caCert }), {});
    expect(findings[0]).toEqual({ ok: true, subject: slapd.ldapsUrl, message: 'connected (TLSv1.2)' });
  });

  it('reports a wrong bindpass without revealing it', async () => {
    const bindpass = 'wrong-secret-value';
    for (const given of [bindpass, new Secret(bindpass, 'env:X')]) {
      const findings = await checkLdapConfig(config({ bindpass: given }), { user: 'alice' });
      expect(messages(findings, false)).toEqual([
        `bind as ${SERVICE_ACCOUNT.rdn},${slapd.suffix} failed: invalid credentials (LDAP result 49)`,
      ]);
      expect(JSON.stringify(findings)).not.toContain(bindpass);
    }
  });

  it('scrubs secret text wherever it would appear', async () => {
    // a bindpass that also occurs in the DN: the finding must not show it
    const findings = await checkLdapConfig(config({ bindpass: new Secret('svc', 'env:X') }), {});
    expect(JSON.stringify(findings)).not.toMatch(/cn=svc/);
    expect(messages(findings, false)[0]).toContain('cn=(sensitive)');
  });

  it('binds anonymously without binddn and reports missing userdn / groupdn', async () => {
    const findings = await checkLdapConfig(
      config({ binddn: '', bindpass: undefined, userdn: `ou=nobody,${slapd.suffix}`, groupdn: '' }),
      {},
    );
    expect(findings.map((f) => [f.ok, f.message])).toEqual([
      [true, 'connected (no TLS)'],
      [true, 'anonymous bind succeeded'],
      [false, `userdn ou=nobody,${slapd.suffix} does not exist`],
      [true, 'groupdn is not set: logins get no LDAP groups'],
    ]);
  });

  it('checks each URL separately', async () => {
    const findings = await checkLdapConfig(config({ url: `ldap://127.0.0.1:1,${slapd.url}` }), {});
    expect(findings[0]).toMatchObject({ ok: false, subject: 'ldap://127.0.0.1:1' });
    expect(findings[0]?.message).toMatch(/^cannot connect: .*ECONNREFUSED/);
    expect(findings.slice(1).every((f) => f.ok && f.subject === slapd.url)).toBe(true);
  });

  it('reports TLS failures per URL', async () => {
    const findings = await checkLdapConfig(config({ url: slapd.ldapsUrl, certificate: slapd.otherCaCert }), {});
    expect(findings).toEqual([
      { ok: false, subject: slapd.ldapsUrl, message: 'cannot connect: self-signed certificate in certificate chain' },
    ]);
  });

  describe('with a user', () => {
    it('finds exactly one entry and lists the groups the group filter gives', async () => {
      const findings = await checkLdapConfig(config(), { user: 'alice' });
      expect(messages(findings, false)).toEqual([]);
      expect(messages(findings).slice(-2)).toEqual([
        `user alice is ${userDn(slapd.suffix, 'alice')}`,
        'groups of alice: admins, Developers, secret-team',
      ]);
    });

    it('honours anonymous_group_search and posixGroup membership', async () => {
      const anon = await checkLdapConfig(config({ anonymous_group_search: true }), { user: 'alice' });
      expect(messages(anon).at(-1)).toBe('groups of alice: admins, Developers');
      const carol = await checkLdapConfig(config(), { user: 'carol' });
      expect(messages(carol).at(-1)).toBe('groups of carol: ops');
      const paula = await checkLdapConfig(config({ max_page_size: 5 }), { user: 'paula' });
      expect(messages(paula).at(-1)).toMatch(/^groups of paula: paged-01, .*paged-30$/);
    });

    it('reports no match and an ambiguous match', async () => {
      const none = await checkLdapConfig(config(), { user: 'nobody' });
      expect(messages(none, false)).toEqual([`user nobody: (uid=nobody) under ou=people,${slapd.suffix} matches no entry; exactly one is needed`]);
      const twins = await checkLdapConfig(config({ userattr: 'cn' }), { user: 'Twin' });
      expect(messages(twins, false)).toEqual([
        `user Twin: (cn=Twin) under ou=people,${slapd.suffix} matches 2 entries (${userDn(slapd.suffix, 'twin1')}; ${userDn(slapd.suffix, 'twin2')}); exactly one is needed`,
      ]);
    });

    it('uses the userfilter and upndomain', async () => {
      const upn = await checkLdapConfig(config({ upndomain: 'example.com' }), { user: 'bob' });
      expect(messages(upn)).toContain(`user bob is ${userDn(slapd.suffix, 'bob')}`);
      const bad = await checkLdapConfig(config({ userfilter: '({{.UserAttr}}={{.Username}' }), { user: 'bob' });
      expect(messages(bad, false)).toEqual(['invalid userfilter: template: queryTemplate:1: unclosed action']);
    });
  });
});
