/**
 * A private OpenLDAP server for tests: its own temp dir, cn=config, TLS material and random
 * ports. It never touches /etc/ldap. Data is loaded online (ldapadd) after start so that the
 * memberof overlay fills in `memberOf`, which it does not do under slapadd.
 */
import { execFile } from 'node:child_process';
import { writeFile, readFile, mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { Client } from 'ldapts';
import { launchOnFreePorts, startServerInTempDir, type LaunchedServer } from './process.js';

const run = promisify(execFile);

export interface SlapdOptions {
  /** Default `dc=example,dc=com`. */
  suffix?: string;
  /** Extra LDIF loaded after the default directory. */
  ldif?: string;
  /**
   * LDIF written into the database with slapadd before slapd starts (the suffix's entry comes
   * with it): far faster than ldapadd for a large directory, but the memberof overlay does not
   * fill `memberOf` for these entries.
   */
  offlineLdif?: string;
  /** olcDbIndex lines, e.g. `member,memberUid eq`: what a production directory indexes. */
  indexes?: string[];
  /** Load the default directory (people, groups, system, aliases). Default true. */
  defaultData?: boolean;
  /** olcSizeLimit, e.g. `size.soft=10 size.hard=10 size.prtotal=unlimited`. */
  sizeLimit?: string;
  /** olcTLSCipherSuite (a GnuTLS priority string), e.g. `NORMAL:-VERS-TLS1.3`. */
  tlsCipherSuite?: string;
  /** TLS clients must present a certificate signed by the fixture's CA. */
  requireClientCert?: boolean;
  /** The hash the CA signs the server's certificate with. Default sha256. */
  serverCertDigest?: 'sha1' | 'sha256';
}

export interface Slapd {
  url: string;
  ldapsUrl: string;
  /** PEM of the CA that signed the server and client certificates. */
  caCert: string;
  /** PEM of an unrelated CA (for "wrong CA" tests). */
  otherCaCert: string;
  clientCert: string;
  clientKey: string;
  /** PEM of the certificate the server presents (signed by caCert). */
  serverCert: string;
  suffix: string;
  rootDn: string;
  rootPw: string;
  pid: number;
  dir: string;
  add(ldif: string): Promise<void>;
  stop: () => Promise<void>;
}

const ROOT_PW = 'root-secret';

export async function startSlapd(opts: SlapdOptions = {}): Promise<Slapd> {
  const suffix = opts.suffix ?? 'dc=example,dc=com';
  const rootDn = `cn=admin,${suffix}`;
  return startServerInTempDir('slapd', (dir) => launch(dir, { ...opts, suffix, rootDn }), async (server) => {
    const { dir } = server;
    const [port, tlsPort] = server.ports as [number, number];
    const url = `ldap://127.0.0.1:${port}`;
    const add = async (ldif: string): Promise<void> => {
      const file = join(dir, `add-${Date.now()}-${Math.random().toString(36).slice(2)}.ldif`);
      await writeFile(file, ldif);
      await run('ldapadd', ['-x', '-H', url, '-D', rootDn, '-y', join(dir, 'rootpw'), '-f', file]);
    };
    await add((opts.offlineLdif === undefined ? baseLdif(suffix) : '') + (opts.defaultData === false ? '' : defaultDirectory(suffix)));
    if (opts.ldif) await add(opts.ldif);
    return {
      url,
      ldapsUrl: `ldaps://127.0.0.1:${tlsPort}`,
      ...server.pki,
      suffix,
      rootDn,
      rootPw: ROOT_PW,
      pid: server.pid,
      dir,
      add,
      stop: server.stop,
    };
  });
}

/** Writes TLS material and cn=config into `dir`, then starts slapd on fresh ports: plain LDAP and LDAPS. */
async function launch(dir: string, opts: SlapdOptions & { suffix: string; rootDn: string }): Promise<LaunchedServer & { pki: Pki }> {
  const pki = await makePki(dir, opts.serverCertDigest ?? 'sha256');
  await mkdir(join(dir, 'slapd.d'));
  await mkdir(join(dir, 'db'));
  const { stdout: hash } = await run('slappasswd', ['-s', ROOT_PW]);
  const config = configLdif({ ...opts, dir, rootPwHash: hash.trim() });
  await writeFile(join(dir, 'config.ldif'), config);
  await run('slapadd', ['-n0', '-F', join(dir, 'slapd.d'), '-l', join(dir, 'config.ldif')]);
  if (opts.offlineLdif !== undefined) {
    await writeFile(join(dir, 'offline.ldif'), baseLdif(opts.suffix) + opts.offlineLdif);
    await run('slapadd', ['-q', '-n1', '-F', join(dir, 'slapd.d'), '-l', join(dir, 'offline.ldif')], { maxBuffer: 64 * 1024 * 1024 });
  }
  await writeFile(join(dir, 'rootpw'), ROOT_PW, { mode: 0o600 });
  const server = await launchOnFreePorts({
    name: 'slapd',
    ports: 2,
    command: '/usr/sbin/slapd',
    args: ([port, tlsPort]) => ['-d', '0', '-F', join(dir, 'slapd.d'), '-h', `ldap://127.0.0.1:${port}/ ldaps://127.0.0.1:${tlsPort}/`],
    probe: ([port]) => () => answersLdap(`ldap://127.0.0.1:${port}`),
    timeoutMs: 10_000,
  });
  return { ...server, pki };
}

/** Ready once an anonymous read of the root DSE succeeds. */
async function answersLdap(url: string): Promise<void> {
  const client = new Client({ url, connectTimeout: 500, timeout: 1000 });
  try {
    await client.search('', { scope: 'base', attributes: ['namingContexts'] });
  } finally {
    await client.unbind().catch(() => undefined);
  }
}

type Pki = Awaited<ReturnType<typeof makePki>>;

async function makePki(dir: string, serverCertDigest: 'sha1' | 'sha256') {
  const p = (name: string) => join(dir, name);
  const ec = ['-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes'];
  const caExt = ['-addext', 'basicConstraints=critical,CA:TRUE', '-addext', 'keyUsage=critical,keyCertSign,cRLSign'];
  await run('openssl', ['req', '-x509', ...ec, '-keyout', p('ca.key'), '-out', p('ca.pem'), '-days', '365', '-subj', '/CN=lockstep test CA', ...caExt]);
  await run('openssl', ['req', '-x509', ...ec, '-keyout', p('other-ca.key'), '-out', p('other-ca.pem'), '-days', '365', '-subj', '/CN=unrelated CA', ...caExt]);
  const issue = async (name: string, subject: string, ext: string, digest: 'sha1' | 'sha256') => {
    await writeFile(p(`${name}.ext`), ext);
    await run('openssl', ['req', ...ec, '-keyout', p(`${name}.key`), '-out', p(`${name}.csr`), '-subj', subject]);
    await run('openssl', ['x509', '-req', `-${digest}`, '-in', p(`${name}.csr`), '-CA', p('ca.pem'), '-CAkey', p('ca.key'), '-CAcreateserial', '-out', p(`${name}.pem`), '-days', '365', '-extfile', p(`${name}.ext`)]);
  };
  await issue('server', '/CN=localhost', 'subjectAltName=DNS:localhost,IP:127.0.0.1\nextendedKeyUsage=serverAuth\n', serverCertDigest);
  await issue('client', '/CN=lockstep-client', 'extendedKeyUsage=clientAuth\n', 'sha256');
  return {
    caCert: await readFile(p('ca.pem'), 'utf8'),
    otherCaCert: await readFile(p('other-ca.pem'), 'utf8'),
    clientCert: await readFile(p('client.pem'), 'utf8'),
    clientKey: await readFile(p('client.key'), 'utf8'),
    serverCert: await readFile(p('server.pem'), 'utf8'),
  };
}

interface ConfigInput extends SlapdOptions {
  dir: string;
  suffix: string;
  rootDn: string;
  rootPwHash: string;
}

function configLdif(c: ConfigInput): string {
  const global = [
    `olcPidFile: ${join(c.dir, 'slapd.pid')}`,
    `olcTLSCertificateFile: ${join(c.dir, 'server.pem')}`,
    `olcTLSCertificateKeyFile: ${join(c.dir, 'server.key')}`,
    `olcTLSCACertificateFile: ${join(c.dir, 'ca.pem')}`,
    `olcTLSVerifyClient: ${c.requireClientCert ? 'demand' : 'try'}`,
    ...(c.tlsCipherSuite ? [`olcTLSCipherSuite: ${c.tlsCipherSuite}`] : []),
  ];
  return `dn: cn=config
objectClass: olcGlobal
cn: config
${global.join('\n')}

dn: cn=module{0},cn=config
objectClass: olcModuleList
cn: module{0}
olcModulePath: /usr/lib/ldap
olcModuleLoad: back_mdb
olcModuleLoad: memberof

dn: cn=schema,cn=config
objectClass: olcSchemaConfig
cn: schema

include: file:///etc/ldap/schema/core.ldif

include: file:///etc/ldap/schema/cosine.ldif

include: file:///etc/ldap/schema/nis.ldif

include: file:///etc/ldap/schema/inetorgperson.ldif

# inetOrgPerson has no userPrincipalName (an AD attribute); a small auxiliary class adds it
# so that upndomain searches can be exercised. OIDs under an example arc.
dn: cn=upn,cn=schema,cn=config
objectClass: olcSchemaConfig
cn: upn
olcAttributeTypes: ( 1.3.6.1.4.1.99999.1.1 NAME 'userPrincipalName' EQUALITY caseIgnoreMatch SUBSTR caseIgnoreSubstringsMatch SYNTAX 1.3.6.1.4.1.1466.115.121.1.15 SINGLE-VALUE )
olcObjectClasses: ( 1.3.6.1.4.1.99999.2.1 NAME 'upnUser' SUP top AUXILIARY MAY userPrincipalName )

dn: olcDatabase={-1}frontend,cn=config
objectClass: olcDatabaseConfig
objectClass: olcFrontendConfig
olcDatabase: {-1}frontend
${c.sizeLimit ? `olcSizeLimit: ${c.sizeLimit}\n` : ''}
dn: olcDatabase={0}config,cn=config
objectClass: olcDatabaseConfig
olcDatabase: {0}config
olcAccess: {0}to * by * none

dn: olcDatabase={1}mdb,cn=config
objectClass: olcDatabaseConfig
objectClass: olcMdbConfig
olcDatabase: {1}mdb
olcDbDirectory: ${join(c.dir, 'db')}
olcSuffix: ${c.suffix}
olcRootDN: ${c.rootDn}
olcRootPW: ${c.rootPwHash}
olcDbMaxSize: 67108864
${(c.indexes ?? []).map((i) => `olcDbIndex: ${i}\n`).join('')}${c.sizeLimit ? `olcSizeLimit: ${c.sizeLimit}\n` : ''}olcAccess: {0}to attrs=userPassword by self write by anonymous auth by * none
olcAccess: {1}to dn.subtree="ou=private,ou=groups,${c.suffix}" by users read by * none
olcAccess: {2}to * by * read

dn: olcOverlay={0}memberof,olcDatabase={1}mdb,cn=config
objectClass: olcOverlayConfig
objectClass: olcMemberOf
olcOverlay: {0}memberof
`;
}

function baseLdif(suffix: string): string {
  const dc = /^dc=([^,]+)/i.exec(suffix)?.[1] ?? 'example';
  return `dn: ${suffix}
objectClass: dcObject
objectClass: organization
dc: ${dc}
o: ${dc}

`;
}

// ---------------------------------------------------------------------------------------------
// Test directory content

export interface TestUser {
  uid: string;
  cn: string;
  password: string;
  mail?: string;
  /** userPrincipalName (adds the upnUser auxiliary class). */
  upn?: string;
  employeeNumber?: string;
  /** Parent OU under the suffix; default `people`. */
  ou?: string;
}

export interface TestGroup {
  cn: string;
  /** uids of groupOfNames members (member=DN); groupOfNames needs at least one. */
  members?: string[];
  /** uids of posixGroup members (memberUid); makes the entry a posixGroup. */
  memberUids?: string[];
  /** Parent under the suffix; default `ou=groups`. */
  parent?: string;
}

/** Logins of the default directory; passwords are test data only. */
export const USERS = {
  alice: { uid: 'alice', cn: 'Alice Adams', password: 'alice-pw', mail: 'alice@example.com', upn: 'alice@example.com' },
  bob: { uid: 'bob', cn: 'Bob Brown', password: 'bob-pw', upn: 'bob@example.com', employeeNumber: 'E-1002' },
  carol: { uid: 'carol', cn: 'Carol Clark', password: 'carol-pw' },
  dave: { uid: 'Dave', cn: 'Dave Davis', password: 'dave-pw' },
  twin1: { uid: 'twin1', cn: 'Twin', password: 'twin-pw' },
  twin2: { uid: 'twin2', cn: 'Twin', password: 'twin-pw' },
  paula: { uid: 'paula', cn: 'Paula Paged', password: 'paula-pw' },
} satisfies Record<string, TestUser>;

export const SERVICE_ACCOUNT = { rdn: 'cn=svc,ou=system', password: 'svc-pw' };
export const PAGED_GROUP_COUNT = 30;

export function userDn(suffix: string, uid: string, ou = 'people'): string {
  return `uid=${uid},ou=${ou},${suffix}`;
}

/** LDIF for users and groups (OUs must exist or be listed in `ous`, parents first). */
export function ldapEntriesFor(
  suffix: string,
  content: { ous?: string[]; users?: TestUser[]; groups?: TestGroup[] },
): string {
  const out: string[] = [];
  for (const ou of content.ous ?? []) {
    const name = /^ou=([^,]+)/.exec(ou)![1];
    out.push(`dn: ${ou},${suffix}\nobjectClass: organizationalUnit\nou: ${name}\n`);
  }
  for (const u of content.users ?? []) {
    const lines = [`dn: ${userDn(suffix, u.uid, u.ou)}`, 'objectClass: inetOrgPerson'];
    if (u.upn) lines.push('objectClass: upnUser', `userPrincipalName: ${u.upn}`);
    lines.push(`uid: ${u.uid}`, `cn: ${u.cn}`, `sn: ${u.cn.split(' ').pop()}`, `userPassword: ${u.password}`);
    if (u.mail) lines.push(`mail: ${u.mail}`);
    if (u.employeeNumber) lines.push(`employeeNumber: ${u.employeeNumber}`);
    out.push(lines.join('\n') + '\n');
  }
  for (const g of content.groups ?? []) {
    const lines = [`dn: cn=${g.cn},${g.parent ?? 'ou=groups'},${suffix}`];
    if (g.memberUids) {
      lines.push('objectClass: posixGroup', `cn: ${g.cn}`, `gidNumber: ${5000 + out.length}`);
      for (const uid of g.memberUids) lines.push(`memberUid: ${uid}`);
    } else {
      lines.push('objectClass: groupOfNames', `cn: ${g.cn}`);
      for (const uid of g.members ?? []) lines.push(`member: ${userDn(suffix, uid)}`);
    }
    out.push(lines.join('\n') + '\n');
  }
  return out.join('\n') + '\n';
}

/**
 * The default directory: ou=people (USERS), ou=system (cn=svc), ou=groups with groupOfNames
 * (admins, Developers), a posixGroup (ops), ou=private (readable by authenticated users only:
 * secret-team), ou=paged (PAGED_GROUP_COUNT groups of paula), and aliases: ou=aliases holds
 * `uid=alice` pointing at alice, and `ou=staff` points at ou=people.
 */
export function defaultDirectory(suffix: string): string {
  const paged = Array.from({ length: PAGED_GROUP_COUNT }, (_, i) => ({
    cn: `paged-${String(i + 1).padStart(2, '0')}`,
    members: ['paula'],
    parent: 'ou=paged,ou=groups',
  }));
  const entries = ldapEntriesFor(suffix, {
    ous: ['ou=people', 'ou=system', 'ou=groups', 'ou=private,ou=groups', 'ou=paged,ou=groups', 'ou=aliases'],
    users: Object.values(USERS),
    groups: [
      { cn: 'admins', members: ['alice', 'Dave'] },
      { cn: 'Developers', members: ['alice', 'bob'] },
      { cn: 'ops', memberUids: ['carol'] },
      { cn: 'secret-team', members: ['alice'], parent: 'ou=private,ou=groups' },
      ...paged,
    ],
  });
  const system = `dn: ${SERVICE_ACCOUNT.rdn},${suffix}
objectClass: organizationalRole
objectClass: simpleSecurityObject
cn: svc
userPassword: ${SERVICE_ACCOUNT.password}

`;
  const aliases = `dn: uid=alice,ou=aliases,${suffix}
objectClass: alias
objectClass: extensibleObject
uid: alice
aliasedObjectName: ${userDn(suffix, 'alice')}

dn: ou=staff,${suffix}
objectClass: alias
objectClass: extensibleObject
ou: staff
aliasedObjectName: ou=people,${suffix}

`;
  return entries + system + aliases;
}

/** Connection and search settings (LDAP config field names) pointing at a fixture. */
export function ldapSettingsFor(slapd: Pick<Slapd, 'url' | 'suffix'>) {
  return {
    url: slapd.url,
    binddn: `${SERVICE_ACCOUNT.rdn},${slapd.suffix}`,
    bindpass: SERVICE_ACCOUNT.password,
    userdn: `ou=people,${slapd.suffix}`,
    userattr: 'uid',
    groupdn: `ou=groups,${slapd.suffix}`,
  };
}
