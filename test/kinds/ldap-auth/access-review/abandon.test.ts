import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDirectory, type DirectoryConnectionSettings } from '../../../../src/kinds/ldap-auth/access-review/directory.js';
import { ldapEntriesFor, ldapSettingsFor, startSlapd, type Slapd } from '../../../support/slapd.js';
import { loginSettings } from './login-settings.support.js';

/**
 * A directory read abandoned while it runs (the read the plan started ahead of its review, when
 * the plan failed first): it ends at once, and nothing more reaches the directory (the LDAP
 * client would otherwise open new connections of its own, unbound).
 */
let slapd: Slapd;
beforeAll(async () => {
  // More users than slapd's size limit (500 a search): the listing is split into searches that run at once.
  const users = Array.from({ length: 1500 }, (_, i) => ({ uid: `u${i}`, cn: `User ${i}`, password: 'x' }));
  slapd = await startSlapd({ ldif: ldapEntriesFor('dc=example,dc=com', { users, groups: [{ cn: 'crew', members: ['u1'] }] }) });
});
afterAll(async () => {
  await slapd?.stop();
});

describe('abandoning a directory read', () => {
  it('aborted among its searches: the read fails at once, its connections close, and no other is opened', async () => {
    const abandoned = new AbortController();
    let searches = 0;
    let opened = 0;
    let openedAfterAbort = 0;
    const closings: Array<Promise<void>> = [];
    const upstreamPort = Number(new URL(slapd.url).port);
    // Between the client and slapd: counts connections, and aborts when the 15th search goes by (of some 20: the listing's parts, then its users' groups).
    const proxy = net.createServer((client) => {
      opened++;
      if (abandoned.signal.aborted) openedAfterAbort++;
      const upstream = net.connect(upstreamPort, '127.0.0.1');
      closings.push(new Promise((closed) => client.on('close', () => closed())));
      client.on('data', (chunk: Buffer) => {
        searches += operationsIn(chunk).filter((op) => op === SEARCH_REQUEST).length;
        // Once the listing's parts are under way, others waiting their turn.
        if (!abandoned.signal.aborted && searches >= 15) abandoned.abort();
      });
      client.pipe(upstream).pipe(client);
      client.on('error', () => upstream.destroy());
      upstream.on('error', () => client.destroy());
      client.on('close', () => upstream.destroy());
    });
    await new Promise<void>((ready) => proxy.listen(0, '127.0.0.1', ready));
    try {
      const f = ldapSettingsFor(slapd);
      const connection: DirectoryConnectionSettings = {
        url: `ldap://127.0.0.1:${(proxy.address() as net.AddressInfo).port}`,
        tls: { starttls: false, insecureTls: false, caCert: '', clientCert: '', clientKey: '', minVersion: 'tls12', maxVersion: 'tls12' },
        connectMs: 0,
        requestMs: 0,
      };
      const settings = loginSettings({ binddn: f.binddn, bindpass: f.bindpass, userdn: f.userdn, groupdn: f.groupdn, userattr: 'uid', groupfilter: '(member={{.UserDN}})' });
      const read = await openDirectory(connection, settings, { kind: 'everyone' }, abandoned.signal);
      // No request timeout: a read that went on (or waited on a connection gone) would never end.
      await expect(read.users).rejects.toThrow(/closed/);
      expect(abandoned.signal.aborted).toBe(true);
      await Promise.all(closings);
      expect(opened).toBeGreaterThan(0);
      expect(openedAfterAbort).toBe(0);
    } finally {
      await new Promise((closed) => proxy.close(closed));
    }
  });
});

/** LDAPMessage's protocolOp tag of a SearchRequest (RFC 4511 4.5.1: [APPLICATION 3]). */
const SEARCH_REQUEST = 0x63;

/** The protocolOp tags of the whole LDAPMessages a chunk starts with (SEQUENCE, messageID, op). */
function operationsIn(chunk: Buffer): number[] {
  const tags: number[] = [];
  let at = 0;
  while (at + 2 < chunk.length && chunk[at] === 0x30) {
    let length = chunk[at + 1]!;
    let header = 2;
    if (length & 0x80) {
      const bytes = length & 0x7f;
      length = 0;
      for (let k = 0; k < bytes; k++) length = length * 256 + chunk[at + 2 + k]!;
      header += bytes;
    }
    const idLength = chunk[at + header + 1]!;
    tags.push(chunk[at + header + 2 + idLength]!);
    at += header + length;
  }
  return tags;
}
