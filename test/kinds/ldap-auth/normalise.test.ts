import { describe, expect, test } from 'vitest';
import { Address } from '../../../src/core/address.js';
import type { DesiredResource } from '../../../src/core/resource.js';
import { isSecret, type Secret } from '../../../src/core/secret.js';
import { defaultLdapConfig } from '../../../src/server/ldap/config.js';
import {
  desiredLdapAuth,
  ldapConfigDefaults,
  LDAP_CONFIG_FIELDS,
  normaliseLiveConfig,
} from '../../../src/kinds/ldap-auth/normalise.js';
import { configDoc, ctx, HEADER, ldapDocs } from './docs.js';
import { ldapFieldSpec } from '../../../src/kinds/ldap-auth/schema-fields.js';

const byAddress = (resources: DesiredResource[]) => new Map(resources.map((r) => [r.address.toString(), r]));

/** The server's read form of a config: the emulator's defaults minus the write-only fields and `policies` (not read back). */
function serverForm(overrides: Record<string, unknown>): Record<string, unknown> {
  const { bindpass: _b, client_tls_cert: _c, client_tls_key: _k, policies: _p, ...readable } = defaultLdapConfig();
  return { ...readable, ...overrides };
}

/**
 * The server's read form as compared: the table's fields only (`policies`, the deprecated alias
 * of token_policies, left out; fields the table does not manage, such as
 * use_pre111_group_cn_behavior, too), and a '' that means the default (rotation_schema before
 * the first write) as that default.
 */
function comparedForm(overrides: Record<string, unknown>): Record<string, unknown> {
  const form = serverForm(overrides);
  return Object.fromEntries(
    Object.entries(form)
      .filter(([k]) => LDAP_CONFIG_FIELDS.includes(k) && k !== 'policies')
      .map(([k, v]) => {
        const spec = ldapFieldSpec(k)!;
        return [k, spec.type === 'enum' && spec.emptyIsDefault && v === '' ? spec.default : v];
      }),
  );
}

describe('desired ldap.config', () => {
  test('a natural manifest normalises to exactly the server read form', async () => {
    const docs = await ldapDocs(
      [
        configDoc(
          'url: LDAPS://LDAP1.example.com,ldaps://ldap2.example.com',
          'binddn: cn=svc,ou=system,dc=example,dc=com',
          'bindpass: ${env:LDAP_BINDPASS}',
          'userdn: ou=people,dc=example,dc=com',
          'userattr: UID',
          'token_policies: "Dev, default ,dev"',
          'token_ttl: 1h',
          'token_max_ttl: "7200"',
          'token_explicit_max_ttl: 1h30m',
          'connection_timeout: 1m',
          'starttls: "true"',
          'deny_null_bind: false',
          'case_sensitive_names: "false"',
          'max_page_size: "500"',
          'token_num_uses: 3',
          'token_bound_cidrs: " 10.0.0.0/8, 192.168.1.0/24"',
          'token_type: batch',
        ),
      ],
      { LDAP_BINDPASS: 'pw' },
    );
    const config = byAddress(desiredLdapAuth(docs, ctx).resources).get('default:auth/ldap/config')!;
    expect(config.attrs).toEqual(
      comparedForm({
        url: 'ldaps://ldap1.example.com,ldaps://ldap2.example.com',
        binddn: 'cn=svc,ou=system,dc=example,dc=com',
        userdn: 'ou=people,dc=example,dc=com',
        userattr: 'uid',
        token_policies: ['Dev', 'default', 'dev'], // #14: as the service stores it, trimmed only
        token_ttl: 3600,
        token_max_ttl: 7200,
        token_explicit_max_ttl: 5400,
        connection_timeout: 60,
        starttls: true,
        deny_null_bind: false,
        max_page_size: 500,
        token_num_uses: 3,
        token_bound_cidrs: ['10.0.0.0/8', '192.168.1.0/24'],
        token_type: 'batch',
      }),
    );
    // Every field but the write-only ones, and `policies`, compared only when it differs from token_policies.
    expect(Object.keys(config.attrs).sort()).toEqual(LDAP_CONFIG_FIELDS.filter((f) => !['bindpass', 'client_tls_cert', 'client_tls_key', 'policies'].includes(f)).sort());
    expect(config.resourceType).toBe('ldap.config');
    expect(config.sensitiveFields).toEqual(['bindpass', 'client_tls_key']);
    // After the mount, and after the policies token_policies names (when the plan writes them).
    expect(config.dependsOn.map(String)).toEqual(['default:sys/auth/ldap', 'default:sys/policies/acl/dev', 'default:sys/policies/acl/default']);
    const bindpass = config.writeOnly.bindpass as Secret;
    expect(isSecret(bindpass) && bindpass.reveal()).toBe('pw');
    // #14.3: the write-only fields it does not set are sent empty (cleared).
    expect(Object.keys(config.writeOnly).sort()).toEqual(['bindpass', 'client_tls_cert', 'client_tls_key']);
    expect([config.writeOnly.client_tls_cert, config.writeOnly.client_tls_key]).toEqual(['', '']);
  });

  test('an empty config block means every default', async () => {
    const docs = await ldapDocs([`${HEADER}config: {}\n`]);
    const config = byAddress(desiredLdapAuth(docs, ctx).resources).get('default:auth/ldap/config')!;
    expect(config.attrs).toEqual(comparedForm({}));
    expect(config.attrs).toEqual(ldapConfigDefaults());
    expect(config.writeOnly).toEqual({ bindpass: '', client_tls_cert: '', client_tls_key: '' });
  });

  test('#14.3: a write-only field named in managedElsewhere is never sent; the others not set are cleared', async () => {
    const docs = await ldapDocs([`${HEADER}managedElsewhere: [bindpass]\nconfig:\n  discoverdn: true\n`]);
    const config = byAddress(desiredLdapAuth(docs, ctx).resources).get('default:auth/ldap/config')!;
    expect(config.writeOnly).toEqual({ client_tls_cert: '', client_tls_key: '' });
  });

  test('deprecated policies fold into token_policies', async () => {
    const docs = await ldapDocs([configDoc('policies: B, a')]);
    const attrs = byAddress(desiredLdapAuth(docs, ctx).resources).get('default:auth/ldap/config')!.attrs;
    expect(attrs.token_policies).toEqual(['B', 'a']);
    expect(attrs).not.toHaveProperty('policies');
  });

  test('client certificate and key are write-only; the key stays a Secret', async () => {
    const docs = await ldapDocs([configDoc('client_tls_cert: CERT', 'client_tls_key: ${env:K}')], { K: 'KEY' });
    const config = byAddress(desiredLdapAuth(docs, ctx).resources).get('default:auth/ldap/config')!;
    expect(config.writeOnly.client_tls_cert).toBe('CERT');
    expect(isSecret(config.writeOnly.client_tls_key)).toBe(true);
    expect(JSON.stringify(config)).not.toContain('KEY"');
  });

  test('no config in any document of a mount: no config resource (left unmanaged)', async () => {
    const docs = await ldapDocs([`${HEADER}groups:\n  ops: {}\n`]);
    const { resources } = desiredLdapAuth(docs, ctx);
    expect(resources.map((r) => r.address.toString())).toEqual(['default:sys/auth/ldap', 'default:auth/ldap/groups/ops']);
    expect(resources[1]!.dependsOn.map(String)).toEqual(['default:sys/auth/ldap']);
  });
});

describe('groups, users, mount and collections', () => {
  test('names and lists normalised; users depend on declared groups', async () => {
    const docs = await ldapDocs([
      `${HEADER}namespace: team-a\nmount: corp\nconfig: {}\ngroups:\n  Admins: { policies: "Admin, ops" }\n  empty:\nusers:\n  Alice: { policies: [Dev, dev], groups: "Admins, ldap-only,admins" }\n`,
    ]);
    const { resources, collections } = desiredLdapAuth(docs, ctx);
    const map = byAddress(resources);
    expect([...map.keys()]).toEqual([
      'default:team-a/sys/auth/corp',
      'default:team-a/auth/corp/config',
      'default:team-a/auth/corp/groups/admins',
      'default:team-a/auth/corp/groups/empty',
      'default:team-a/auth/corp/users/alice',
    ]);
    expect(map.get('default:team-a/sys/auth/corp')!.attrs).toEqual({ type: 'ldap' });
    expect(map.get('default:team-a/sys/auth/corp')!.resourceType).toBe('auth.mount');
    expect(map.get('default:team-a/auth/corp/groups/admins')!.attrs).toEqual({ policies: ['admin', 'ops'] });
    expect(map.get('default:team-a/auth/corp/groups/empty')!.attrs).toEqual({ policies: [] });
    const alice = map.get('default:team-a/auth/corp/users/alice')!;
    expect(alice.resourceType).toBe('ldap.user');
    expect(alice.attrs).toEqual({ policies: ['dev'], groups: ['admins', 'ldap-only'] });
    expect(alice.dependsOn.map(String)).toEqual(['default:team-a/auth/corp/config', 'default:team-a/sys/policies/acl/dev', 'default:team-a/auth/corp/groups/admins']);
    expect(collections).toEqual([
      { address: new Address('default', 'team-a/auth/corp/groups'), memberType: 'ldap.group', prune: false, deleteLoses: expect.stringContaining('takes its policies from every member') },
      { address: new Address('default', 'team-a/auth/corp/users'), memberType: 'ldap.user', prune: false, deleteLoses: expect.stringContaining('takes its policies and local groups') },
    ]);
  });

  test('case_sensitive_names keeps the case of names and group lists', async () => {
    const docs = await ldapDocs([configDoc('case_sensitive_names: true') + 'groups:\n  Ops: {}\nusers:\n  Bob: { groups: [Ops, ops] }\n']);
    const map = byAddress(desiredLdapAuth(docs, ctx).resources);
    expect(map.get('default:auth/ldap/users/Bob')!.attrs).toEqual({ policies: [], groups: ['Ops', 'ops'] });
    expect(map.get('default:auth/ldap/users/Bob')!.dependsOn.map(String)).toEqual(['default:auth/ldap/config', 'default:auth/ldap/groups/Ops']);
  });

  test('documents of one mount merge; config and its case rule apply to all of them', async () => {
    const docs = await ldapDocs([
      `${HEADER}groups:\n  Ops: { policies: [x] }\nprune: true\n`,
      configDoc('binddn: cn=a') + 'users:\n  Carol: { groups: [OPS] }\n',
    ]);
    const { resources, collections } = desiredLdapAuth(docs, ctx);
    expect(resources.map((r) => r.address.toString())).toEqual([
      'default:sys/auth/ldap',
      'default:auth/ldap/config',
      'default:auth/ldap/groups/ops',
      'default:auth/ldap/users/carol',
    ]);
    expect(resources[3]!.dependsOn.map(String)).toEqual(['default:auth/ldap/config', 'default:auth/ldap/groups/ops']);
    expect(collections.map((c) => c.prune)).toEqual([true, true]);
  });

  test('--prune turns pruning on for every mount', async () => {
    const docs = await ldapDocs([`${HEADER}users: {}\n`]);
    expect(desiredLdapAuth(docs, { ...ctx, prune: true }).collections.map((c) => c.prune)).toEqual([true, true]);
    expect(desiredLdapAuth(docs, ctx).collections.map((c) => c.prune)).toEqual([false, false]);
  });

  test('users and groups naming the same lists share their attrs and dependencies, frozen, each as if built alone', async () => {
    const docs = await ldapDocs([
      `${HEADER}groups:\n  G1: { policies: [p] }\n  g2: { policies: [p] }\n  g3: { policies: [q] }\nusers:\n` +
        '  a: { policies: [X, y], groups: [g1, G3] }\n  b: { policies: [X, y], groups: [g1, G3] }\n  c: { policies: "X,y", groups: [g1] }\n  d: { groups: [g1] }\n  e: {}\n',
    ]);
    const map = byAddress(desiredLdapAuth(docs, ctx).resources);
    const user = (name: string) => map.get(`default:auth/ldap/users/${name}`)!;
    const group = (name: string) => map.get(`default:auth/ldap/groups/${name}`)!;
    expect(user('a').attrs).toEqual({ policies: ['x', 'y'], groups: ['G3', 'g1'] });
    expect(user('c').attrs).toEqual({ policies: ['x', 'y'], groups: ['g1'] });
    expect(user('d').attrs).toEqual({ policies: [], groups: ['g1'] });
    expect(user('e').attrs).toEqual({ policies: [], groups: [] });
    // Names keep their case until the live config says (no config here): g1 still depends on G1.
    expect(user('a').dependsOn.map(String)).toEqual(['default:sys/auth/ldap', 'default:sys/policies/acl/x', 'default:sys/policies/acl/y', 'default:auth/ldap/groups/g3', 'default:auth/ldap/groups/G1']);
    expect(user('d').dependsOn.map(String)).toEqual(['default:sys/auth/ldap', 'default:auth/ldap/groups/G1']);
    expect(user('b').attrs).toBe(user('a').attrs);
    expect(user('b').dependsOn).toBe(user('a').dependsOn);
    expect(group('g2').attrs).toBe(group('G1').attrs);
    expect(group('g3').attrs).toEqual({ policies: ['q'] });
    for (const shared of [user('a').attrs, user('a').attrs['policies'], user('a').dependsOn, user('a').writeOnly, user('a').sensitiveFields]) {
      expect(Object.isFrozen(shared)).toBe(true);
    }
    expect(() => user('a').dependsOn.push(user('a').address)).toThrow(TypeError);
  });

  test('inputs are not mutated', async () => {
    const docs = await ldapDocs([configDoc('token_ttl: 1h', 'url: LDAP://A') + 'users:\n  Bob: { groups: "b,a" }\n']);
    const before = JSON.stringify(docs.map((d) => d.data));
    desiredLdapAuth(docs, ctx);
    expect(JSON.stringify(docs.map((d) => d.data))).toBe(before);
  });
});

describe('normaliseLiveConfig', () => {
  test('keeps only the compared fields, in the same forms, defaults for missing ones', () => {
    const live = {
      ...serverForm({ token_policies: ['default', 'dev'], policies: ['default', 'dev'], url: 'ldap://a' }),
      request_timeout: '90s',
      starttls: 'false',
      token_bound_cidrs: '10.0.0.0/8',
      some_future_field: 'x',
    } as unknown as Record<string, never>;
    delete (live as Record<string, unknown>).groupattr;
    expect(normaliseLiveConfig(live)).toEqual(comparedForm({ token_policies: ['default', 'dev'], url: 'ldap://a', token_bound_cidrs: ['10.0.0.0/8'] }));
  });

  test('a desired config equals the live answer of a server that stored it', async () => {
    const docs = await ldapDocs([configDoc('token_policies: [b, A]', 'token_ttl: 2h', 'userattr: SAMAccountName', 'starttls: true')]);
    const desired = byAddress(desiredLdapAuth(docs, ctx).resources).get('default:auth/ldap/config')!.attrs;
    const live = serverForm({ token_policies: ['b', 'A'], token_ttl: 7200, userattr: 'samaccountname', starttls: true });
    expect(normaliseLiveConfig(live as never)).toEqual(desired);
  });

  test('a live policies list of its own is kept (so a difference shows)', () => {
    const live = serverForm({ token_policies: ['a'], policies: ['b'] });
    expect(normaliseLiveConfig(live as never).policies).toEqual(['b']);
  });
});
