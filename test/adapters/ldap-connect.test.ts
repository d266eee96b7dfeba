import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  connectFirst,
  connectOne,
  LdapConnectError,
  searchEntries,
  splitUrls,
  type LdapTlsSettings,
} from '../../src/adapters/ldap/index.js';
import { startSilentServer } from '../support/silent-server.js';
import { ldapSettingsFor, startSlapd, type Slapd } from '../support/slapd.js';

let slapd: Slapd;
beforeAll(async () => {
  slapd = await startSlapd();
});
afterAll(async () => {
  await slapd?.stop();
});

const timeouts = { connectMs: 3000, requestMs: 5000 };
const tls = (overrides: Partial<LdapTlsSettings> = {}): LdapTlsSettings => ({
  starttls: false,
  insecureTls: false,
  caCert: slapd.caCert,
  minVersion: 'tls12',
  maxVersion: 'tls12',
  ...overrides,
});

describe('connect', () => {
  it('splits a comma list of URLs', () => {
    expect(splitUrls(' ldap://a , ldaps://b:1636,, ')).toEqual(['ldap://a', 'ldaps://b:1636']);
    expect(splitUrls(['ldap://a', ' '])).toEqual(['ldap://a']);
  });

  it('connects in plain text, with StartTLS and with ldaps, reporting the TLS protocol', async () => {
    const plain = await connectOne(slapd.url, tls(), timeouts);
    expect(plain.tlsProtocol).toBeUndefined();
    await plain.close();

    const upgraded = await connectOne(slapd.url, tls({ starttls: true, maxVersion: 'tls13' }), timeouts);
    expect(upgraded.tlsProtocol).toBe('TLSv1.3');
    const entries = await searchEntries(upgraded.client, { base: slapd.suffix, scope: 'base', attributes: ['1.1'] });
    expect(entries.map((e) => e.dn)).toEqual([slapd.suffix]);
    await upgraded.close();

    const ldaps = await connectOne(slapd.ldapsUrl, tls({ maxVersion: 'tls12' }), timeouts);
    expect(ldaps.tlsProtocol).toBe('TLSv1.2');
    await ldaps.close();
  });

  it('connectFirst skips unknown schemes and dead URLs and lists every failure', async () => {
    const conn = await connectFirst(['foo://x', 'ldap://127.0.0.1:1', slapd.url], tls(), timeouts);
    expect(conn.url).toBe(slapd.url);
    await conn.close();

    const err = await connectFirst('foo://x,ldap://127.0.0.1:1', tls(), timeouts).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(LdapConnectError);
    expect((err as LdapConnectError).attempts.map((a) => a.url)).toEqual(['foo://x', 'ldap://127.0.0.1:1']);
    expect((err as Error).message).toMatch(/invalid LDAP scheme "foo".*ECONNREFUSED/);
    await expect(connectFirst('', tls(), timeouts)).rejects.toThrow('no LDAP server URL configured');
  });

  it('rejects invalid TLS settings before connecting', async () => {
    await expect(connectOne(slapd.ldapsUrl, tls({ minVersion: 'tls99' }), timeouts)).rejects.toThrow(/tls_min_version/);
    await expect(connectOne(slapd.ldapsUrl, tls({ clientCert: slapd.clientCert }), timeouts)).rejects.toThrow(
      /both client_tls_cert and client_tls_key/,
    );
  });

  it('an abort ends an attempt at once: the socket of a StartTLS the server never answers is closed', async () => {
    const silent = await startSilentServer();
    try {
      const abort = new AbortController();
      const attempt = connectFirst(`ldap://127.0.0.1:${silent.port}`, tls({ starttls: true }), { connectMs: 0, requestMs: 0 }, abort.signal);
      await silent.reached;
      abort.abort();
      await expect(attempt).rejects.toThrow();
      await silent.allClosed();
      // Aborted before it starts: nothing is opened.
      await expect(connectOne(slapd.url, tls(), timeouts, abort.signal)).rejects.toThrow(/abort/i);
    } finally {
      await silent.close();
    }
  });

  it('never reconnects on its own: a request after its connection closed fails, no second socket opened', async () => {
    const conn = await connectOne(slapd.url, tls({ starttls: true }), timeouts);
    await conn.client.bind(ldapSettingsFor(slapd).binddn, ldapSettingsFor(slapd).bindpass);
    await conn.close();
    // The client would have opened a plain socket, without StartTLS and unbound.
    await expect(conn.client.search(slapd.suffix, { scope: 'base' })).rejects.toThrow(/closed/);
  });
});
