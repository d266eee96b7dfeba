import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { defaultLdapConfig, type LdapConfig } from '../../../src/server/ldap/config.js';
import { ldapLogin } from '../../../src/server/ldap/login.js';
import { startSilentServer, type SilentServer } from '../../support/silent-server.js';
import { ldapSettingsFor, startSlapd, USERS, type Slapd } from '../../support/slapd.js';

let slapd: Slapd;
/** Refuses TLS 1.3 and demands a client certificate. */
let strict: Slapd;
let blackHole: SilentServer;

beforeAll(async () => {
  [slapd, strict, blackHole] = await Promise.all([
    startSlapd(),
    startSlapd({ tlsCipherSuite: 'NORMAL:-VERS-TLS1.3', requireClientCert: true }),
    startSilentServer(),
  ]);
});
afterAll(async () => {
  await Promise.all([blackHole?.close(), slapd?.stop(), strict?.stop()]);
});

function config(target: Slapd, overrides: Partial<LdapConfig> = {}): LdapConfig {
  return { ...defaultLdapConfig(), ...ldapSettingsFor(target), connection_timeout: 5, request_timeout: 10, ...overrides };
}

const login = (cfg: LdapConfig) => ldapLogin(cfg, 'alice', USERS.alice.password);

describe('ldapLogin: URLs', () => {
  it('skips dead URLs and unknown schemes in order, honouring connection_timeout', async () => {
    const url = [
      'ldap://127.0.0.1:1', // refused
      `ldaps://127.0.0.1:${blackHole.port}`, // accepts TCP, never answers the handshake
      'http://127.0.0.1:80', // unknown scheme
      slapd.url,
    ].join(',');
    const started = Date.now();
    expect(await login(config(slapd, { url, connection_timeout: 1 }))).toMatchObject({ ok: true, alias: 'alice' });
    const elapsed = Date.now() - started;
    expect(elapsed).toBeGreaterThanOrEqual(900);
    expect(elapsed).toBeLessThan(4500); // well under the 5 s default of config()
  });

  it('answers 400 naming every URL when none can be connected, without the bindpass', async () => {
    const cfg = config(slapd, { url: `ldap://127.0.0.1:1, ldap://127.0.0.1:${blackHole.port}`, connection_timeout: 1 });
    const out = await ldapLogin({ ...cfg, starttls: true }, 'alice', USERS.alice.password);
    expect(out.ok).toBe(false);
    if (out.ok) return;
    expect(out.status).toBe(400);
    expect(out.message).toMatch(/^ldap operation failed: failed to connect to any LDAP server: ldap:\/\/127\.0\.0\.1:1: .*ECONNREFUSED/);
    expect(out.message).toContain('timed out');
    expect(out.message).not.toContain(cfg.bindpass);
    expect(out.message).not.toContain(USERS.alice.password);
  });
});

describe('ldapLogin: TLS', () => {
  it('upgrades ldap:// with starttls, verifying the server against certificate', async () => {
    expect(await login(config(slapd, { starttls: true, certificate: slapd.caCert }))).toMatchObject({ ok: true });
    const wrongCa = await login(config(slapd, { starttls: true, certificate: slapd.otherCaCert }));
    expect(wrongCa).toMatchObject({ ok: false, status: 400 });
    expect(!wrongCa.ok && wrongCa.message).toMatch(/certificate/);
    expect(await login(config(slapd, { starttls: true, certificate: slapd.otherCaCert, insecure_tls: true }))).toMatchObject({ ok: true });
  });

  it('ldaps:// with certificate succeeds; a wrong CA or the system roots fail; insecure_tls succeeds', async () => {
    const ldaps = { url: slapd.ldapsUrl };
    expect(await login(config(slapd, { ...ldaps, certificate: slapd.caCert }))).toMatchObject({ ok: true });
    expect(await login(config(slapd, { ...ldaps, certificate: slapd.otherCaCert }))).toMatchObject({ ok: false, status: 400 });
    expect(await login(config(slapd, ldaps))).toMatchObject({ ok: false, status: 400 });
    expect(await login(config(slapd, { ...ldaps, insecure_tls: true }))).toMatchObject({ ok: true });
  });

  it('applies tls_min_version and tls_max_version', async () => {
    const ldaps = { url: slapd.ldapsUrl, certificate: slapd.caCert };
    expect(await login(config(slapd, { ...ldaps, tls_min_version: 'tls13', tls_max_version: 'tls13' }))).toMatchObject({ ok: true });
    const strictTls = { url: strict.ldapsUrl, certificate: strict.caCert, client_tls_cert: strict.clientCert, client_tls_key: strict.clientKey };
    // the strict server stops at TLS 1.2
    expect(await login(config(strict, { ...strictTls, tls_min_version: 'tls13', tls_max_version: 'tls13' }))).toMatchObject({ ok: false, status: 400 });
    expect(await login(config(strict, { ...strictTls, tls_min_version: 'tls12', tls_max_version: 'tls13' }))).toMatchObject({ ok: true });
  });

  it('presents client_tls_cert / client_tls_key to a server that demands one', async () => {
    const base = { url: strict.ldapsUrl, certificate: strict.caCert };
    expect(await login(config(strict, base))).toMatchObject({ ok: false, status: 400 });
    expect(await login(config(strict, { ...base, client_tls_cert: strict.clientCert, client_tls_key: strict.clientKey }))).toMatchObject({ ok: true });
    const starttls = { url: strict.url, starttls: true, certificate: strict.caCert };
    expect(await login(config(strict, { ...starttls, client_tls_cert: strict.clientCert, client_tls_key: strict.clientKey }))).toMatchObject({ ok: true });
  });
});
