import { readFileSync } from 'node:fs';
import { describe, expect, test } from 'vitest';
import { Diagnostics } from '../../../src/core/diagnostics.js';
import { validateLdapAuth } from '../../../src/kinds/ldap-auth/rules.js';
import { configDoc, ctx, HEADER, ldapDocs } from './docs.js';

const fixture = (name: string) => readFileSync(new URL(`fixtures/${name}`, import.meta.url), 'utf8');
const PEM = { ca: fixture('ca.pem'), cert: fixture('client.pem'), key: fixture('client.key'), otherKey: fixture('other.key') };

/** Formatted diagnostics of the rules over the given files. */
async function check(files: string[], env: NodeJS.ProcessEnv = {}): Promise<string[]> {
  const diags = new Diagnostics();
  validateLdapAuth(await ldapDocs(files, env), diags, ctx);
  return diags.format();
}

describe('a natural, valid manifest', () => {
  test('has no diagnostics', async () => {
    const lines = await check([
      configDoc(
        'url: ldaps://ldap1.example.com,ldaps://ldap2.example.com:636',
        'binddn: cn=svc,ou=system,dc=example,dc=com',
        'bindpass: ${env:P}',
        'userdn: ou=people,dc=example,dc=com',
        'userattr: uid',
        'userfilter: (&(objectClass=person)(uid={{.Username}}))',
        'groupfilter: (member={{.UserDN}})',
        'token_policies: [default, dev]',
        'token_ttl: 1h',
        'token_bound_cidrs: 10.0.0.0/8, 2001:db8::/32',
        'max_page_size: "100"',
        'deny_null_bind: "true"',
        'tls_min_version: tls12',
        'tls_max_version: tls13',
        'certificate: ${env:CA}',
        'client_tls_cert: ${env:CERT}',
        'client_tls_key: ${env:KEY}',
      ) + 'groups:\n  admins: { policies: [admin] }\nusers:\n  alice: { policies: dev, groups: [admins, ldap-only] }\n',
    ], { P: 'pw', CA: PEM.ca, CERT: PEM.cert, KEY: PEM.key });
    expect(lines).toEqual([]);
  });
});

describe('userfilter', () => {
  test('must contain {{.UserAttr}} or the userattr value', async () => {
    expect(await check([configDoc('userattr: uid', 'userfilter: (cn={{.Username}})')])).toEqual([
      'f0.yaml:5:15: error: config.userfilter: must contain {{.UserAttr}} or the userattr value "uid" (otherwise logins may match other entries and entity aliases may collide); the service accepts it with a warning: to keep it, add userfilter-without-userattr to the document\'s acknowledge list',
    ]);
  });
  test('#14.3: acknowledged, the rule the service only warns about is a warning', async () => {
    expect(await check([`acknowledge: [userfilter-without-userattr]\n${configDoc('userattr: uid', 'userfilter: (cn={{.Username}})')}`])).toEqual([
      'f0.yaml:6:15: warning: config.userfilter: must contain {{.UserAttr}} or the userattr value "uid" (otherwise logins may match other entries and entity aliases may collide); accepted: acknowledged as userfilter-without-userattr',
    ]);
  });
  test('the default userattr is cn; the attribute compares case-insensitively', async () => {
    expect(await check([configDoc('userfilter: (CN={{.Username}})')])).toEqual([]);
    expect(await check([configDoc('userattr: sAMAccountName', 'userfilter: (samaccountname={{.Username}})')])).toEqual([]);
    expect(await check([configDoc('userfilter: ({{.UserAttr}}={{.Username}})', 'userattr: uid')])).toEqual([]);
  });
  test('template syntax of userfilter and groupfilter', async () => {
    expect(await check([configDoc('userfilter: ({{.UserAttr}}={{.Username)', 'groupfilter: (member={{.UserAttr}})')])).toEqual([
      'f0.yaml:4:15: error: config.userfilter: has an unclosed "{{" (a template action must end with "}}")',
      'f0.yaml:5:16: error: config.groupfilter: has an unknown template action "{{.UserAttr}}" (known: {{.UserDN}}, {{.Username}}); the service accepts it and fails every login: to keep it, add filter-template-unknown-action to the document\'s acknowledge list',
    ]);
  });
  test('#14.3: acknowledged, an unknown template action (the service only parses templates) is a warning', async () => {
    expect(await check([`acknowledge: [filter-template-unknown-action]\n${configDoc('groupfilter: (member={{.Nope}})')}`])).toEqual([
      'f0.yaml:5:16: warning: config.groupfilter: has an unknown template action "{{.Nope}}" (known: {{.UserDN}}, {{.Username}}); accepted: acknowledged as filter-template-unknown-action',
    ]);
  });
});

describe('value forms after references are resolved', () => {
  const env = { TTL: '90 minutes', MS: '1500ms', N: '-3', B: 'yes', V: 'tls14', T: 'both', L: '10.0.0.0/8' };
  test('durations, counts, booleans, enumerations', async () => {
    const lines = await check([
      configDoc(
        'token_ttl: ${env:TTL}',
        'token_max_ttl: ${env:MS}',
        'token_num_uses: ${env:N}',
        'insecure_tls: ${env:B}',
        'tls_max_version: ${env:V}',
        'token_type: ${env:T}',
        'dereference_aliases: ${env:T}',
      ),
    ], env);
    expect(lines).toEqual([
      'f0.yaml:4:14: error: config.token_ttl: must be a duration (e.g. 90s, 1h) or a whole number of seconds',
      'f0.yaml:5:18: error: config.token_max_ttl: must be a whole number of seconds (the server drops fractions of a second)',
      'f0.yaml:6:19: error: config.token_num_uses: must be a whole number (0 or more)',
      'f0.yaml:7:17: error: config.insecure_tls: must be true or false',
      'f0.yaml:8:20: error: config.tls_max_version: must be one of tls10, tls11, tls12, tls13',
      'f0.yaml:9:15: error: config.token_type: must be one of service, batch, default',
      'f0.yaml:10:24: error: config.dereference_aliases: must be one of never, finding, searching, always',
    ]);
  });
  test('issue 28: alias_metadata a mapping of text, the rotation on a schedule or a period (automatedrotationutil ParseAutomatedRotationFields)', async () => {
    const lines = await check([
      configDoc('alias_metadata: { team: [a] }', 'rotation_schedule: "0 * * * SAT"', 'rotation_period: 24h', 'rotation_window: 1h', 'rotation_schema: nds'),
    ]);
    expect(lines).toEqual([
      'f0.yaml:4:19: error: config.alias_metadata: must be a mapping of names to text (or a list of name=value items)',
      'f0.yaml:6:20: error: config.rotation_period: rotation_schedule and rotation_period are mutually exclusive: give one of them',
      'f0.yaml:7:20: error: config.rotation_window: rotation_window does not apply to rotation_period: it bounds a rotation_schedule',
      'f0.yaml:8:20: error: config.rotation_schema: must be one of openldap, ad, racf',
    ]);
    expect(await check([configDoc('alias_metadata: [team=a, "env=x=y"]', 'rotation_schedule: "0 * * * SAT"', 'rotation_window: 1h', 'max_page_size: -1')])).toEqual([]);
  });

  test('sub-second durations written directly', async () => {
    expect(await check([configDoc('request_timeout: 250ms')])).toEqual([
      'f0.yaml:4:20: error: config.request_timeout: must be a whole number of seconds (the server drops fractions of a second)',
    ]);
  });
});

describe('tls versions', () => {
  test('tls_min_version above tls_max_version', async () => {
    expect(await check([configDoc('tls_min_version: tls13', 'tls_max_version: tls11')])).toEqual([
      'f0.yaml:4:20: error: config.tls_min_version: tls_min_version tls13 is above tls_max_version tls11',
    ]);
  });
  test('defaults count: tls13 alone is above the default maximum tls12', async () => {
    expect(await check([configDoc('tls_min_version: tls13')])).toEqual([
      'f0.yaml:4:20: error: config.tls_min_version: tls_min_version tls13 is above tls_max_version tls12 (the default)',
    ]);
    expect(await check([configDoc('tls_max_version: tls11')])).toEqual([
      'f0.yaml:4:20: error: config.tls_max_version: tls_min_version tls12 (the default) is above tls_max_version tls11',
    ]);
  });
});

describe('urls and CIDRs', () => {
  test('url list syntax', async () => {
    expect(await check([configDoc('url: ldap://a.example.com,https://b.example.com,ldaps://c:99999')])).toEqual([
      'f0.yaml:4:8: error: config.url: entry 2 "https://b.example.com" must be ldap:// or ldaps:// followed by a host and an optional port, nothing else',
      'f0.yaml:4:8: error: config.url: entry 3 "ldaps://c:99999" has port 99999; a port must be between 1 and 65535',
    ]);
  });
  test('CIDR blocks, IPv4 and IPv6', async () => {
    expect(await check([configDoc('token_bound_cidrs: [10.0.0.0/8, 10.0.0.0/40, "fe80::/200", not-an-ip]')])).toEqual([
      'f0.yaml:4:22: error: config.token_bound_cidrs: "10.0.0.0/40" has an invalid prefix length (0-32)',
      'f0.yaml:4:22: error: config.token_bound_cidrs: "fe80::/200" has an invalid prefix length (0-128)',
      'f0.yaml:4:22: error: config.token_bound_cidrs: "not-an-ip" is not an IPv4 or IPv6 address or CIDR block',
    ]);
  });
  test('starttls with only ldaps:// URLs is pointless: a warning', async () => {
    expect(await check([configDoc('url: ldaps://a', 'starttls: true')])).toEqual([
      'f0.yaml:5:13: warning: config.starttls: has no effect with ldaps:// URLs (they use TLS from the start)',
    ]);
    expect(await check([configDoc('url: ldaps://a,ldap://b', 'starttls: true')])).toEqual([]);
  });
});

describe('certificates and keys', () => {
  test('certificate must be PEM that parses', async () => {
    expect(await check([configDoc('certificate: not a certificate')])).toEqual([
      'f0.yaml:4:16: error: config.certificate: must be an x509 certificate in PEM form (-----BEGIN CERTIFICATE-----)',
    ]);
    const broken = '-----BEGIN CERTIFICATE-----\nAAAA\n-----END CERTIFICATE-----';
    expect(await check([configDoc('certificate: ${env:C}')], { C: broken })).toEqual([
      'f0.yaml:4:16: error: config.certificate: the certificate is not a valid x509 PEM certificate',
    ]);
    expect(await check([configDoc('certificate: ${env:C}')], { C: PEM.ca + PEM.cert })).toEqual([]);
  });
  test('client_tls_key must parse, and its message never contains the key', async () => {
    const badKey = '-----BEGIN PRIVATE KEY-----\nTOPSECRETKEYMATERIAL\n-----END PRIVATE KEY-----';
    const lines = await check([configDoc('client_tls_cert: ${env:CERT}', 'client_tls_key: ${env:KEY}')], { CERT: PEM.cert, KEY: badKey });
    expect(lines).toEqual(['f0.yaml:5:19: error: config.client_tls_key: is not a valid PEM private key']);
    expect(lines.join()).not.toContain('TOPSECRET');
  });
  test('client_tls_key must belong to client_tls_cert', async () => {
    expect(await check([configDoc('client_tls_cert: ${env:CERT}', 'client_tls_key: ${env:KEY}')], { CERT: PEM.cert, KEY: PEM.otherKey })).toEqual([
      'f0.yaml:5:19: error: config.client_tls_key: does not belong to client_tls_cert (their public keys differ)',
    ]);
  });
  test('client_tls_cert and client_tls_key go together', async () => {
    expect(await check([configDoc('client_tls_cert: ${env:CERT}')], { CERT: PEM.cert })).toEqual([
      'f0.yaml:4:20: error: config.client_tls_cert: requires client_tls_key',
    ]);
    expect(await check([configDoc('client_tls_key: ${env:KEY}')], { KEY: PEM.key })).toEqual([
      'f0.yaml:4:19: error: config.client_tls_key: requires client_tls_cert',
    ]);
  });
});

describe('deprecated policies', () => {
  test('alone: a warning', async () => {
    expect(await check([configDoc('policies: [a]')])).toEqual(['f0.yaml:4:13: warning: config.policies: is deprecated; use token_policies']);
  });
  test('with token_policies: an error', async () => {
    expect(await check([configDoc('policies: [a]', 'token_policies: [b]')])).toEqual([
      'f0.yaml:4:13: error: config.policies: cannot be given with token_policies (policies is its deprecated alias)',
    ]);
  });
});

describe('names', () => {
  test('names colliding once lower-cased, in one document or across documents', async () => {
    const lines = await check([
      `${HEADER}groups:\n  Admins: {}\n  admins: {}\nusers:\n  bob: {}\n`,
      `${HEADER}users:\n  BOB: {}\n`,
    ]);
    expect(lines).toEqual([
      'f0.yaml:5:3: error: groups.admins: group "admins" collides with "Admins" at f0.yaml:4:3 once names are lower-cased (case_sensitive_names is false)',
      'f1.yaml:4:3: error: users.BOB: user "BOB" collides with "bob" at f0.yaml:7:3 once names are lower-cased (case_sensitive_names is false)',
    ]);
  });
  test('with case_sensitive_names true they are different names', async () => {
    expect(await check([configDoc('case_sensitive_names: true') + 'groups:\n  Admins: {}\n  admins: {}\n'])).toEqual([]);
    expect(await check([configDoc('case_sensitive_names: "true"'), `${HEADER}users:\n  Bob: {}\n  bob: {}\n`])).toEqual([]);
  });
  test('names that cannot be a path segment', async () => {
    expect(await check([`${HEADER}groups:\n  a/b: {}\nusers:\n  "": {}\n`])).toEqual([
      'f0.yaml:4:3: error: groups.a/b: group name "a/b" must not contain "/" (it would address another object)',
      'f0.yaml:6:3: error: users."": user name "" must not be empty',
    ]);
  });
  test('a user may name groups that are not defined locally (they may be LDAP groups)', async () => {
    expect(await check([`${HEADER}users:\n  alice: { groups: [only-in-ldap] }\n`])).toEqual([]);
  });
});

describe('merging documents of one mount', () => {
  test('the same group or user in two documents is an error naming both places', async () => {
    const lines = await check([`${HEADER}groups:\n  ops: {}\nusers:\n  ann: {}\n`, `${HEADER}groups:\n  ops: {}\nusers:\n  ann: {}\n`]);
    expect(lines).toEqual([
      'f1.yaml:4:3: error: groups.ops: group "ops" is already defined at f0.yaml:4:3 (documents of mount "ldap" (cluster default) merge; define each group once)',
      'f1.yaml:6:3: error: users.ann: user "ann" is already defined at f0.yaml:6:3 (documents of mount "ldap" (cluster default) merge; define each user once)',
    ]);
  });
  test('at most one config per mount', async () => {
    expect(await check([configDoc('binddn: a'), configDoc('binddn: b')])).toEqual([
      'f1.yaml:3:1: error: config: mount "ldap" (cluster default) already has its config at f0.yaml:3:1; at most one LdapAuth document per mount may have config',
    ]);
  });
  test('different mounts, namespaces or clusters do not merge', async () => {
    const lines = await check([
      configDoc('binddn: a') + 'groups:\n  ops: {}\n',
      `${HEADER}mount: corp\n` + configDoc('binddn: b').slice(HEADER.length) + 'groups:\n  ops: {}\n',
      `${HEADER}namespace: team-a\n` + configDoc('binddn: c').slice(HEADER.length) + 'groups:\n  ops: {}\n',
      `${HEADER}cluster: west\n` + configDoc('binddn: d').slice(HEADER.length) + 'groups:\n  ops: {}\n',
    ]);
    expect(lines).toEqual([]);
  });
  test('explicit prune values must agree', async () => {
    expect(await check([`${HEADER}prune: true\n`, `${HEADER}users: {}\n`, `${HEADER}prune: false\n`])).toEqual([
      'f2.yaml:3:8: error: prune: disagrees with prune: true at f0.yaml:3:8 (documents of mount "ldap" (cluster default) merge)',
    ]);
  });
  test('mount is a mount path: one segment or more, none empty, none inside another declared mount', async () => {
    expect(await check([`${HEADER}mount: /ldap\n`, `${HEADER}mount: corp/ldap\n`, `${HEADER}mount: a/b/c\n`])).toEqual([
      'f0.yaml:3:8: error: mount: "/ldap" must not start or end with "/"',
    ]);
    expect(await check([`${HEADER}mount: corp\n`, `${HEADER}mount: corp/ldap\n`])).toEqual([
      'f1.yaml:3:8: error: mount: mount "corp/ldap" (cluster default) lies within mount "corp" (cluster default): the service refuses to enable a mount inside another',
    ]);
  });
});
