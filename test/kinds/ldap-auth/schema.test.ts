import { readFileSync } from 'node:fs';
import { describe, expect, test } from 'vitest';
import { LDAP_CONFIG_FIELDS, LDAP_FIELD_SPECS } from '../../../src/kinds/ldap-auth/schema-fields.js';
import { ldapSecretPaths } from '../../../src/kinds/ldap-auth/secrets.js';
import { defaultLdapConfig } from '../../../src/server/ldap/config.js';
import { schemaValidator, SCHEMA_DIR } from '../../../src/validate/schemas.js';

const schema = JSON.parse(readFileSync(`${SCHEMA_DIR}ldap-auth.schema.json`, 'utf8')) as {
  properties: { config: { properties: Record<string, unknown> } };
};

describe('ldap-auth.schema.json and the field table', () => {
  test('the schema covers exactly the config and token fields of the table', () => {
    expect(Object.keys(schema.properties.config.properties).sort()).toEqual([...LDAP_CONFIG_FIELDS].sort());
  });

  test("the table's defaults are the server's defaults", () => {
    const server = defaultLdapConfig() as unknown as Record<string, unknown>;
    // Every field of the table is one the server has (use_pre111_group_cn_behavior is the server's alone).
    expect(Object.keys(server)).toEqual(expect.arrayContaining([...LDAP_CONFIG_FIELDS]));
    for (const spec of LDAP_FIELD_SPECS) {
      // rotation_schema and rotation_credential_type read '' before the first write: the default.
      const held = spec.type === 'enum' && spec.emptyIsDefault && server[spec.name] === '' ? spec.default : server[spec.name];
      expect([spec.name, spec.default]).toEqual([spec.name, held]);
    }
  });

  test('every documented form validates', () => {
    const validate = schemaValidator('ldap-auth.schema.json');
    const ok = validate({
      apiVersion: 'lockstep/v1',
      kind: 'LdapAuth',
      cluster: 'east',
      namespace: 'team-a',
      mount: 'ldap',
      config: {
        url: 'ldap://a',
        token_ttl: '1h30m',
        token_max_ttl: 3600,
        token_period: '${env:P}',
        request_timeout: '7d',
        starttls: 'true',
        insecure_tls: false,
        token_policies: 'a,b',
        policies: ['a'],
        token_bound_cidrs: ['10.0.0.0/8'],
        max_page_size: '10',
        token_num_uses: 0,
        tls_min_version: 'tls12',
        token_type: '',
        dereference_aliases: 'always',
      },
      groups: { a: null, b: { policies: 'x' } },
      users: { c: { policies: ['x'], groups: 'a,b' }, d: null },
      prune: true,
    });
    expect(validate.errors ?? []).toEqual([]);
    expect(ok).toBe(true);
  });
});

describe('ldapSecretPaths', () => {
  test('bindpass and client_tls_key when present; never client_tls_cert', () => {
    expect(ldapSecretPaths({ config: { bindpass: 'x', client_tls_key: 'y', client_tls_cert: 'z' } })).toEqual([
      ['config', 'client_tls_key'],
      ['config', 'bindpass'],
    ]);
    expect(ldapSecretPaths({ config: { url: 'x' } })).toEqual([]);
    expect(ldapSecretPaths({})).toEqual([]);
    expect(ldapSecretPaths(null)).toEqual([]);
  });
});
