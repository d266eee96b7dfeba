import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkLdapConfig, type Finding, type LdapCheckConfig } from '../../src/check/ldap.js';
import { Secret } from '../../src/core/secret.js';
import { ldapSettingsFor, SERVICE_ACCOUNT, startSlapd, userDn, type Slapd } from '../support/slapd.js';

let slapd: Slapd;
/** After the fixture made its certificates, valid for a year: nothing in them to warn about. */
let NOW: Date;
beforeAll(async () => {
  slapd = await startSlapd();
  NOW = new Date();
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
    const findings = await checkLdapConfig(config(), { now: NOW });
    expect(findings.every((f) => f.ok && f.subject === slapd.url)).toBe(true);
    expect(messages(findings)).toEqual([
      'connected (no TLS)',
      `bind as ${SERVICE_ACCOUNT.rdn},${slapd.suffix} succeeded`,
      `userdn ou=people,${slapd.suffix} exists`,
      `groupdn ou=groups,${slapd.suffix} exists`,
    ]);
  });

  it('reports the TLS protocol of an ldaps connection', async () => {
    const findings = await checkLdapConfig(config({ url: slapd.ldapsUrl, certificate: slapd.caCert }), { now: NOW });
    expect(findings[0]).toEqual({ ok: true, subject: slapd.ldapsUrl, message: 'connected (TLSv1.2)' });
  });

  it('reports a wrong bindpass without revealing it', async () => {
    const bindpass = 'wrong-secret-value';
    for (const given of [bindpass, new Secret(bindpass, 'env:X')]) {
      const findings = await checkLdapConfig(config({ bindpass: given }), { now: NOW, user: 'alice' });
      expect(messages(findings, false)).toEqual([
        `bind as ${SERVICE_ACCOUNT.rdn},${slapd.suffix} failed: invalid credentials (LDAP result 49)`,
      ]);
      expect(JSON.stringify(findings)).not.toContain(bindpass);
    }
  });

  it('scrubs secret text wherever it would appear', async () => {
    // a bindpass that also occurs in the DN: the finding must not show it
    const findings = await checkLdapConfig(config({ bindpass: new Secret('svc', 'env:X') }), { now: NOW });
    expect(JSON.stringify(findings)).not.toMatch(/cn=svc/);
    expect(messages(findings, false)[0]).toContain('cn=(sensitive)');
  });

  it('binds anonymously without binddn and reports missing userdn / groupdn', async () => {
    const findings = await checkLdapConfig(
      config({ binddn: '', bindpass: undefined, userdn: `ou=nobody,${slapd.suffix}`, groupdn: '' }),
      { now: NOW },
    );
    expect(findings.map((f) => [f.ok, f.message])).toEqual([
      [true, 'connected (no TLS)'],
      [true, 'anonymous bind succeeded'],
      [false, `userdn ou=nobody,${slapd.suffix} does not exist`],
      [true, 'groupdn is not set: logins get no LDAP groups'],
    ]);
  });

  it('checks each URL separately', async () => {
    const findings = await checkLdapConfig(config({ url: `ldap://127.0.0.1:1,${slapd.url}` }), { now: NOW });
    expect(findings[0]).toMatchObject({ ok: false, subject: 'ldap://127.0.0.1:1' });
    expect(findings[0]?.message).toMatch(/^cannot connect: .*ECONNREFUSED/);
    expect(findings.slice(1).every((f) => f.ok && f.subject === slapd.url)).toBe(true);
  });

  it('reports TLS failures per URL', async () => {
    const findings = await checkLdapConfig(config({ url: slapd.ldapsUrl, certificate: slapd.otherCaCert }), { now: NOW });
    expect(findings).toEqual([
      { ok: false, subject: slapd.ldapsUrl, message: 'cannot connect: self-signed certificate in certificate chain' },
      { ok: true, subject: slapd.ldapsUrl, message: 'presented chain CN=localhost <- CN=lockstep test CA: no SHA-1 signature, each valid for more than 30 days' },
      { ok: false, subject: slapd.ldapsUrl, message: 'presented chain is not trusted by the configured certificate: self signed cert in chain' },
    ]);
  });

  describe('the certificate chain each TLS URL presents', () => {
    it('ldaps:// and StartTLS with a SHA-256 chain: sound and trusted by the configured certificate', async () => {
      for (const overrides of [{ url: slapd.ldapsUrl }, { starttls: true }]) {
        const findings = await checkLdapConfig(config({ ...overrides, certificate: slapd.caCert }), { now: NOW });
        const url = overrides.url ?? slapd.url;
        expect(findings.slice(0, 3)).toEqual([
          { ok: true, subject: url, message: 'connected (TLSv1.2)' },
          { ok: true, subject: url, message: 'presented chain CN=localhost <- CN=lockstep test CA: no SHA-1 signature, each valid for more than 30 days' },
          { ok: true, subject: url, message: 'presented chain is trusted by the configured certificate' },
        ]);
        expect(findings.every((f) => f.ok)).toBe(true);
      }
    });

    it('a chain ending within 30 days at the clock given is a warning, and passes', async () => {
      const later = new Date(NOW.getTime() + 350 * 86_400_000);
      const findings = await checkLdapConfig(config({ url: slapd.ldapsUrl, certificate: slapd.caCert }), { now: later });
      const warnings = findings.filter((f) => f.warning);
      expect(warnings.map((f) => [f.ok, f.message.replace(/\(\d{4}-[^)]*\)$/, '(date)')])).toEqual([
        [true, 'presented certificate 1 of 2 (CN=localhost) expires in 14 days (date)'],
        [true, 'presented certificate 2 of 2 (CN=lockstep test CA) expires in 14 days (date)'],
      ]);
    });
  });

  describe('with a user', () => {
    it('finds exactly one entry and lists the groups the group filter gives', async () => {
      const findings = await checkLdapConfig(config(), { now: NOW, user: 'alice' });
      expect(messages(findings, false)).toEqual([]);
      expect(messages(findings).slice(-2)).toEqual([
        `user alice is ${userDn(slapd.suffix, 'alice')}`,
        'groups of alice: admins, Developers, secret-team',
      ]);
    });

    it('honours anonymous_group_search and posixGroup membership', async () => {
      const anon = await checkLdapConfig(config({ anonymous_group_search: true }), { now: NOW, user: 'alice' });
      expect(messages(anon).at(-1)).toBe('groups of alice: admins, Developers');
      const carol = await checkLdapConfig(config(), { now: NOW, user: 'carol' });
      expect(messages(carol).at(-1)).toBe('groups of carol: ops');
      const paula = await checkLdapConfig(config({ max_page_size: 5 }), { now: NOW, user: 'paula' });
      expect(messages(paula).at(-1)).toMatch(/^groups of paula: paged-01, .*paged-30$/);
    });

    it('reports no match and an ambiguous match', async () => {
      const none = await checkLdapConfig(config(), { now: NOW, user: 'nobody' });
      expect(messages(none, false)).toEqual([`user nobody: (uid=nobody) under ou=people,${slapd.suffix} matches no entry; exactly one is needed`]);
      const twins = await checkLdapConfig(config({ userattr: 'cn' }), { now: NOW, user: 'Twin' });
      expect(messages(twins, false)).toEqual([
        `user Twin: (cn=Twin) under ou=people,${slapd.suffix} matches 2 entries (${userDn(slapd.suffix, 'twin1')}; ${userDn(slapd.suffix, 'twin2')}); exactly one is needed`,
      ]);
    });

    it('uses the userfilter and upndomain', async () => {
      const upn = await checkLdapConfig(config({ upndomain: 'example.com' }), { now: NOW, user: 'bob' });
      expect(messages(upn)).toContain(`user bob is ${userDn(slapd.suffix, 'bob')}`);
      const bad = await checkLdapConfig(config({ userfilter: '({{.UserAttr}}={{.Username}' }), { now: NOW, user: 'bob' });
      expect(messages(bad, false)).toEqual(['invalid userfilter: template: queryTemplate:1: unclosed action']);
    });
  });
});
