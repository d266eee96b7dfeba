import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { existsSync } from 'node:fs';
import { Client } from 'ldapts';
import { startSlapd, USERS, userDn, PAGED_GROUP_COUNT, type Slapd } from '../support/slapd.js';

describe('slapd fixture', () => {
  let slapd: Slapd;
  beforeAll(async () => {
    slapd = await startSlapd();
  });
  afterAll(async () => {
    await slapd?.stop();
  });

  it('serves the default directory with memberOf filled in', async () => {
    const client = new Client({ url: slapd.url });
    try {
      await client.bind(userDn(slapd.suffix, 'alice'), USERS.alice.password);
      const { searchEntries } = await client.search(userDn(slapd.suffix, 'alice'), {
        scope: 'base',
        attributes: ['memberOf', 'userPrincipalName'],
      });
      const [alice] = searchEntries;
      expect(alice?.userPrincipalName).toBe('alice@example.com');
      expect([alice?.memberOf].flat().map(String).sort()).toEqual([
        `cn=Developers,ou=groups,${slapd.suffix}`,
        `cn=admins,ou=groups,${slapd.suffix}`,
        `cn=secret-team,ou=private,ou=groups,${slapd.suffix}`,
      ].sort());
      const paged = await client.search(`ou=paged,ou=groups,${slapd.suffix}`, { filter: '(objectClass=groupOfNames)' });
      expect(paged.searchEntries).toHaveLength(PAGED_GROUP_COUNT);
    } finally {
      await client.unbind();
    }
  });

  it('answers ldaps with the fixture CA', async () => {
    const client = new Client({ url: slapd.ldapsUrl, tlsOptions: { ca: [slapd.caCert] } });
    try {
      await client.bind(slapd.rootDn, slapd.rootPw);
    } finally {
      await client.unbind();
    }
  });

  it('adds entries and stops cleanly', async () => {
    const other = await startSlapd({ defaultData: false });
    await other.add(`dn: ou=extra,${other.suffix}\nobjectClass: organizationalUnit\nou: extra\n`);
    const client = new Client({ url: other.url });
    const { searchEntries } = await client.search(other.suffix, { filter: '(ou=extra)' });
    await client.unbind();
    expect(searchEntries).toHaveLength(1);
    await other.stop();
    expect(existsSync(other.dir)).toBe(false);
    expect(() => process.kill(other.pid, 0)).toThrow();
  });
});
