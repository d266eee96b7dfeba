import { readFileSync } from 'node:fs';
import { describe, expect, test } from 'vitest';
import { fieldsOf as serverFieldsOf } from '../../../src/server/managed-keys/fields.js';
import { fieldsOf, REQUIRED_FIELDS } from '../../../src/kinds/managed-key/fields.js';
import { managedKeySecretPaths } from '../../../src/kinds/managed-key/secrets.js';
import { KEY_TYPES } from '../../../src/kinds/managed-key/types.js';
import { schemaValidator, SCHEMA_DIR } from '../../../src/validate/schemas.js';

const schema = JSON.parse(readFileSync(`${SCHEMA_DIR}managed-key.schema.json`, 'utf8')) as {
  definitions: Record<string, { properties: Record<string, unknown>; required: string[]; additionalProperties: boolean }>;
};

describe('managed-key.schema.json and the field table', () => {
  test.each(KEY_TYPES)('%s: the schema holds exactly the fields of the table, and its required ones', (type) => {
    const def = schema.definitions[`${type}Config`]!;
    expect(def.additionalProperties).toBe(false);
    expect(Object.keys(def.properties).sort()).toEqual(fieldsOf(type).map((f) => f.name).sort());
    // A required secret (pin, credentials) may be named in managedElsewhere instead (#14.3): the
    // schema requires it in a condition on the document, not in the config's own list.
    const secrets = new Set(fieldsOf(type).filter((f) => f.secret).map((f) => f.name));
    expect([...def.required].sort()).toEqual(REQUIRED_FIELDS[type].filter((f) => !secrets.has(f)).sort());
  });

  test('#14.3: a required secret is required unless managedElsewhere names it', () => {
    const validate = schemaValidator('managed-key.schema.json');
    const doc = (extra: Record<string, unknown>) => ({
      apiVersion: 'lockstep/v1',
      kind: 'ManagedKey',
      name: 'hsm',
      type: 'pkcs11',
      config: { library: 'softhsm', mechanism: '0x1041', token_label: 't', key_label: 'k' },
      ...extra,
    });
    expect(validate(doc({}))).toBe(false);
    expect(validate(doc({ managedElsewhere: ['pin'] }))).toBe(true);
    expect(validate(doc({ managedElsewhere: ['secret_key'] }))).toBe(false);
  });

  test.each(KEY_TYPES)("%s: the table's fields are the server's", (type) => {
    expect(fieldsOf(type).map((f) => f.name).sort()).toEqual(Object.keys(serverFieldsOf(type)).sort());
  });

  test('every documented form validates', () => {
    const validate = schemaValidator('managed-key.schema.json');
    const doc = (type: string, config: Record<string, unknown>, verify?: unknown) => ({ apiVersion: 'lockstep/v1', kind: 'ManagedKey', cluster: 'east', namespace: 'team-a', name: 'k', type, config, verify });
    const docs = [
      doc('pkcs11', { library: 'softhsm', key_id: '01', mechanism: '0X1041', pin: '${env:P}', slot: 3, curve: 'p-384', key_bits: '2048', max_parallel: '2', force_rw_session: 'T', usages: ['sign'], any_mount: true }, true),
      doc('provAkms', { key_type: 'Rsa', key_bits: 4096, kms_key: 'alias/k', region: 'eu-west-1', allow_generate_key: 'false' }, { hash_algorithm: 'sha3-256', use_pss: 'true' }),
      doc('provBkeyvault', { tenant_id: 't', vault_name: 'v', key_name: 'k', key_type: 'RSA-HSM', environment: 'PROVBCHINACLOUD' }, false),
      doc('provCckms', { credentials: '/etc/sa.json', crypto_key: 'k', key_ring: 'r', project: 'p', region: 'r', algorithm: '${env:ALG}', crypto_key_version: 2 }),
    ];
    for (const d of docs) {
      validate(d);
      expect(validate.errors ?? []).toEqual([]);
    }
  });
});

describe('managedKeySecretPaths', () => {
  test('pin, secret_key, client_secret; credentials unless it is a literal path on the server', () => {
    expect(managedKeySecretPaths({ config: { pin: 'x', secret_key: 'y', client_secret: 'z', access_key: 'a' } })).toEqual([
      ['config', 'pin'],
      ['config', 'secret_key'],
      ['config', 'client_secret'],
    ]);
    expect(managedKeySecretPaths({ config: { credentials: '${file:sa.json}' } })).toEqual([['config', 'credentials']]);
    expect(managedKeySecretPaths({ config: { credentials: ' {"type": "service_account"}' } })).toEqual([['config', 'credentials']]);
    expect(managedKeySecretPaths({ config: { credentials: '/etc/provc/sa.json' } })).toEqual([]);
    expect(managedKeySecretPaths({ config: { credentials: 'C:\\provc\\sa.json' } })).toEqual([]);
    // Anything else written literally could be a pasted credential.
    expect(managedKeySecretPaths({ config: { credentials: 'sa.json' } })).toEqual([['config', 'credentials']]);
    expect(managedKeySecretPaths({ config: { credentials: 'MIIEvQIBADANBgkqhkiG9w0BAQEFAASC' } })).toEqual([['config', 'credentials']]);
    expect(managedKeySecretPaths({ config: null })).toEqual([]);
    expect(managedKeySecretPaths(null)).toEqual([]);
  });
});
