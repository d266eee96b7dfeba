import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createServer, type Server } from 'node:net';
import { defaultLdapConfig, type LdapConfig } from '../../../src/server/ldap/config.js';
import {
  ldapLogin,
  MISSING_ALIAS,
  NULL_BIND_REFUSED,
  USER_BIND_FAILED,
} from '../../../src/server/ldap/login.js';
import { ldapSettingsFor, startSlapd, USERS, userDn, type Slapd } from '../../support/slapd.js';

let slapd: Slapd;
beforeAll(async () => {
  slapd = await startSlapd();
});
afterAll(async () => {
  await slapd?.stop();
});

/** A config searching as the service account (binddn + bindpass), userattr uid. */
function config(overrides: Partial<LdapConfig> = {}): LdapConfig {
  return { ...defaultLdapConfig(), ...ldapSettingsFor(slapd), connection_timeout: 5, request_timeout: 10, ...overrides };
}

const denied = { ok: false, status: 400, message: USER_BIND_FAILED };

async function groupsOf(cfg: LdapConfig, user: string, password: string): Promise<string[]> {
  const out = await ldapLogin(cfg, user, password);
  if (!out.ok) throw new Error(out.message);
  return [...out.ldapGroups].sort();
}

describe('ldapLogin: authentication', () => {
  it('logs in through a binddn search and returns the DN, alias and groups', async () => {
    const out = await ldapLogin(config(), 'alice', USERS.alice.password);
    expect(out).toMatchObject({ ok: true, userDn: userDn(slapd.suffix, 'alice'), alias: 'alice' });
    expect(out.ok && [...out.ldapGroups].sort()).toEqual(['Developers', 'admins', 'secret-team']);
  });

  it('answers the same 400 for a wrong password, an unknown user and an ambiguous match', async () => {
    expect(await ldapLogin(config(), 'alice', 'wrong')).toEqual(denied);
    expect(await ldapLogin(config(), 'nobody', 'whatever')).toEqual(denied);
    // userattr cn: two entries have cn=Twin
    expect(await ldapLogin(config({ userattr: 'cn' }), 'Twin', USERS.twin1.password)).toEqual(denied);
  });

  it('refuses an empty password with deny_null_bind before contacting the server', async () => {
    const out = await ldapLogin(config({ url: 'ldap://127.0.0.1:1' }), 'alice', '');
    expect(out).toEqual({ ok: false, status: 400, message: NULL_BIND_REFUSED });
  });

  it('without deny_null_bind, an empty password is an unauthenticated bind the server refuses', async () => {
    expect(await ldapLogin(config({ deny_null_bind: false }), 'alice', '')).toEqual(denied);
  });

  it('fails on a wrong bindpass with the same answer', async () => {
    expect(await ldapLogin(config({ bindpass: 'not-the-password' }), 'alice', USERS.alice.password)).toEqual(denied);
  });

  it('discoverdn searches anonymously', async () => {
    const out = await ldapLogin(config({ discoverdn: true, binddn: '', bindpass: '' }), 'bob', USERS.bob.password);
    expect(out).toMatchObject({ ok: true, userDn: userDn(slapd.suffix, 'bob'), alias: 'bob', ldapGroups: ['Developers'] });
  });

  it('binds directly as <userattr>=<username>,<userdn> without binddn', async () => {
    const cfg = config({ binddn: '', bindpass: '' });
    expect(await ldapLogin(cfg, 'carol', USERS.carol.password)).toMatchObject({
      ok: true,
      userDn: userDn(slapd.suffix, 'carol'),
      ldapGroups: ['ops'],
    });
    // DN special characters in the username are escaped, not interpreted.
    expect(await ldapLogin(cfg, 'carol,ou=people', USERS.carol.password)).toEqual(denied);
  });

  it('fails when neither a search nor a bind DN can be derived', async () => {
    expect(await ldapLogin(config({ binddn: '', bindpass: '', userdn: '' }), 'alice', USERS.alice.password)).toEqual(denied);
  });

  it('upndomain with binddn: searches userPrincipalName=<user>@<domain>', async () => {
    const out = await ldapLogin(config({ upndomain: 'example.com' }), 'alice', USERS.alice.password);
    expect(out).toMatchObject({ ok: true, userDn: userDn(slapd.suffix, 'alice'), alias: 'alice' });
    // carol has no userPrincipalName
    expect(await ldapLogin(config({ upndomain: 'example.com' }), 'carol', USERS.carol.password)).toEqual(denied);
  });

  it('upndomain without binddn binds as <user>@<domain> (OpenLDAP refuses a non-DN bind name)', async () => {
    const cfg = config({ binddn: '', bindpass: '', upndomain: 'example.com' });
    expect(await ldapLogin(cfg, 'alice', USERS.alice.password)).toEqual(denied);
  });

  it('upndomain without binddn sends user@domain as the bind name', async () => {
    const { server, url, received } = await recordingServer();
    try {
      const cfg = config({ url, binddn: '', bindpass: '', upndomain: 'corp.example' });
      expect(await ldapLogin(cfg, 'Alice', 'pw')).toEqual(denied);
      expect(received().includes('Alice@corp.example')).toBe(true);
    } finally {
      server.close();
    }
  });

  it('uses the userfilter template', async () => {
    const cfg = config({ userfilter: '(&(objectClass=inetOrgPerson)(mail={{.Username}}@example.com))' });
    expect(await ldapLogin(cfg, 'alice', USERS.alice.password)).toMatchObject({ ok: true, alias: 'alice' });
    // filter metacharacters in the username are escaped
    expect(await ldapLogin(config(), '*', USERS.alice.password)).toEqual(denied);
    expect(await ldapLogin(config({ userfilter: '({{.UserAttr}}={{.Username}' }), 'alice', USERS.alice.password)).toEqual(denied);
  });

  it('sends the username with its case preserved, whatever case_sensitive_names says', async () => {
    // uid matching is case-insensitive, so the login works ...
    const out = await ldapLogin(config(), 'CAROL', USERS.carol.password);
    expect(out).toMatchObject({ ok: true, alias: 'carol' });
    // ... but memberUid is case-exact: the posixGroup matches only the username as typed.
    expect(out.ok && out.ldapGroups).toEqual([]);
  });
});

describe('ldapLogin: groups', () => {
  it('reads groupOfNames (member=DN) and posixGroup (memberUid) groups by cn', async () => {
    expect(await groupsOf(config(), 'carol', USERS.carol.password)).toEqual(['ops']);
    expect(await groupsOf(config(), 'Dave', USERS.dave.password)).toEqual(['admins']);
  });

  it('groupattr memberOf on the user entry gives the CN of each group DN', async () => {
    const cfg = config({
      groupdn: `ou=people,${slapd.suffix}`,
      groupfilter: '(&(objectClass=inetOrgPerson)(uid={{.Username}}))',
      groupattr: 'memberOf',
    });
    expect(await groupsOf(cfg, 'alice', USERS.alice.password)).toEqual(['Developers', 'admins', 'secret-team']);
  });

  it('keeps groupattr values that are not DNs as they are; an entry without the attribute is named by its DN', async () => {
    // sdk/helper/ldaputil/client.go GetLdapGroups: "If groupattr didn't resolve, use self"; a DN without a CN stays whole.
    const cfg = config({ groupattr: 'description', groupdn: `ou=people,${slapd.suffix}`, groupfilter: '(uid={{.Username}})' });
    expect(await groupsOf(cfg, 'alice', USERS.alice.password)).toEqual([userDn(slapd.suffix, 'alice')]);
    const groups = config({ groupattr: 'description' });
    expect(await groupsOf(groups, 'alice', USERS.alice.password)).toEqual(['Developers', 'admins', 'secret-team']);
    const pre111 = config({ groupattr: 'description', use_pre111_group_cn_behavior: true });
    expect(await groupsOf(pre111, 'alice', USERS.alice.password)).toEqual([
      `cn=Developers,ou=groups,${slapd.suffix}`,
      `cn=admins,ou=groups,${slapd.suffix}`,
      `cn=secret-team,ou=private,ou=groups,${slapd.suffix}`,
    ]);
    const mail = config({ groupattr: 'mail', groupdn: `ou=people,${slapd.suffix}`, groupfilter: '(uid={{.Username}})' });
    expect(await groupsOf(mail, 'alice', USERS.alice.password)).toEqual(['alice@example.com']);
  });

  it('anonymous_group_search searches groups anonymously (private groups are not visible)', async () => {
    expect(await groupsOf(config({ anonymous_group_search: true }), 'alice', USERS.alice.password)).toEqual([
      'Developers',
      'admins',
    ]);
  });

  it('no groups without groupdn, and a missing groupdn is only a warning', async () => {
    const none = await ldapLogin(config({ groupdn: '' }), 'alice', USERS.alice.password);
    expect(none).toMatchObject({ ok: true, ldapGroups: [] });
    const missing = await ldapLogin(config({ groupdn: `ou=nowhere,${slapd.suffix}` }), 'alice', USERS.alice.password);
    expect(missing).toMatchObject({ ok: true, ldapGroups: [] });
    expect(missing.ok && missing.warnings?.join('\n')).toMatch(/no such object/);
  });
});

describe('ldapLogin: alias', () => {
  it('takes the alias from the userattr of the entry', async () => {
    const cfg = config({ userattr: 'employeenumber', userfilter: '(uid={{.Username}})' });
    expect(await ldapLogin(cfg, 'bob', USERS.bob.password)).toMatchObject({ ok: true, alias: 'E-1002' });
    expect(await ldapLogin(cfg, 'alice', USERS.alice.password)).toEqual({ ok: false, status: 400, message: MISSING_ALIAS });
  });

  it('username_as_alias uses the canonical name', async () => {
    const cfg = config({ userattr: 'employeenumber', userfilter: '(uid={{.Username}})', username_as_alias: true });
    expect(await ldapLogin(cfg, 'Alice', USERS.alice.password)).toMatchObject({ ok: true, alias: 'alice' });
    const sensitive = { ...cfg, case_sensitive_names: true };
    expect(await ldapLogin(sensitive, 'Alice', USERS.alice.password)).toMatchObject({ ok: true, alias: 'Alice' });
  });
});

/** A TCP server that records what it receives and answers every bind with invalidCredentials. */
async function recordingServer(): Promise<{ server: Server; url: string; received: () => string }> {
  const chunks: Buffer[] = [];
  const server = createServer((socket) => {
    socket.on('data', (data) => {
      chunks.push(data);
      const messageId = data[4] ?? 0; // 30 LL 02 01 <id> ...: small ids fit in one byte
      // BindResponse: resultCode 49 (invalidCredentials), empty matchedDN and message
      socket.write(Buffer.from([0x30, 0x0c, 0x02, 0x01, messageId, 0x61, 0x07, 0x0a, 0x01, 49, 0x04, 0x00, 0x04, 0x00]));
    });
    socket.on('error', () => undefined);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  return { server, url: `ldap://127.0.0.1:${port}`, received: () => Buffer.concat(chunks).toString('latin1') };
}
