import { readFileSync } from 'node:fs';
import { describe, expect, test } from 'vitest';
import { comparedFieldsOf, fieldsOf, SNAPSHOT_CONFIG_FIELDS, SNAPSHOT_FIELD_SPECS, STORAGE_TYPES } from '../../../src/kinds/snapshot-policy/fields.js';
import { snapshotSecretPaths } from '../../../src/kinds/snapshot-policy/secrets.js';
import { configView, parseConfigWrite } from '../../../src/server/snapshots/config.js';
import { SECRET_FIELDS } from '../../../src/adapters/storage/index.js';
import { schemaValidator, SCHEMA_DIR } from '../../../src/validate/schemas.js';

const schema = JSON.parse(readFileSync(`${SCHEMA_DIR}snapshot-policy.schema.json`, 'utf8')) as {
  properties: { config: { properties: Record<string, { 'x-storage-type'?: string }> } };
};

describe('snapshot-policy.schema.json and the field table', () => {
  test('the schema covers exactly the fields of the table, each tagged with its storage type', () => {
    const props = schema.properties.config.properties;
    expect(Object.keys(props).sort()).toEqual([...SNAPSHOT_CONFIG_FIELDS].sort());
    for (const spec of SNAPSHOT_FIELD_SPECS) {
      expect([spec.name, props[spec.name]!['x-storage-type'] ?? 'common']).toEqual([spec.name, spec.variant]);
    }
  });

  test('the credential fields are the storage adapters’ secret fields', () => {
    expect(SNAPSHOT_FIELD_SPECS.filter((f) => f.secret).map((f) => f.name).sort()).toEqual([...SECRET_FIELDS].sort());
  });

  test("each storage type's fields are those the server reads back", () => {
    const minimal: Record<string, Record<string, unknown>> = {
      local: { local_max_space: 1 },
      'provA-s3': { provA_s3_bucket: 'b', provA_s3_region: 'r' },
      'provB-blob': { provB_container_name: 'c', provB_account_name: 'a', provB_account_key: 'a2V5' },
      'provC-gcs': { provC_gcs_bucket: 'b' },
    };
    for (const type of STORAGE_TYPES) {
      const parsed = parseConfigWrite({ interval: 1, path_prefix: 'p/', storage_type: type, ...minimal[type] });
      if (!parsed.ok) throw new Error(parsed.errors.join('; '));
      const view = configView(parsed.config);
      const readable = comparedFieldsOf(type).map((f) => f.name);
      expect(Object.keys(view).filter((k) => readable.includes(k)).sort()).toEqual([...readable].sort());
      const secrets = fieldsOf(type).filter((f) => f.secret).map((f) => f.name);
      expect(Object.keys(view).filter((k) => !readable.includes(k)).sort()).toEqual(secrets.filter((s) => view[s] !== undefined).sort());
    }
  });

  test('every documented form validates', () => {
    const validate = schemaValidator('snapshot-policy.schema.json');
    const ok = validate({
      apiVersion: 'lockstep/v1',
      kind: 'SnapshotPolicy',
      name: 'hourly',
      cluster: 'east',
      namespace: 'team-a',
      config: { interval: '1h', retain: '24', storage_type: 'local', path_prefix: '/s', local_max_space: '10GiB', file_prefix: 'x' },
      prune: true,
    });
    expect(validate.errors ?? []).toEqual([]);
    expect(ok).toBe(true);
    for (const config of [
      { interval: 3600, retain: 2, local_max_space: 10737418240 },
      { interval: '${env:I}', retain: '${env:R}', local_max_space: '${env:M}', storage_type: '${env:T}' },
      { local_max_space: '500 MB', provA_s3_disable_tls: 'true', provC_disable_tls: false },
    ]) {
      expect(validate({ apiVersion: 'lockstep/v1', kind: 'SnapshotPolicy', name: 'x', config }), JSON.stringify(validate.errors)).toBe(true);
    }
  });

  test('unknown fields, wrong types and a missing name or config are refused', () => {
    const validate = schemaValidator('snapshot-policy.schema.json');
    expect(validate({ apiVersion: 'lockstep/v1', kind: 'SnapshotPolicy', name: 'x', config: { intervall: 1 } })).toBe(false);
    expect(validate({ apiVersion: 'lockstep/v1', kind: 'SnapshotPolicy', name: 'x', config: { retain: -1 } })).toBe(false);
    expect(validate({ apiVersion: 'lockstep/v1', kind: 'SnapshotPolicy', name: 'x', config: { storage_type: 's3' } })).toBe(false);
    expect(validate({ apiVersion: 'lockstep/v1', kind: 'SnapshotPolicy', config: {} })).toBe(false);
    expect(validate({ apiVersion: 'lockstep/v1', kind: 'SnapshotPolicy', name: 'x' })).toBe(false);
  });

  test('secret paths are the credential fields present, whatever the storage type', () => {
    expect(snapshotSecretPaths({ config: { provA_secret_access_key: 'x', provB_account_key: 'y', interval: 1 } })).toEqual([
      ['config', 'provA_secret_access_key'],
      ['config', 'provB_account_key'],
    ]);
    expect(snapshotSecretPaths({ config: { interval: 1 } })).toEqual([]);
    expect(snapshotSecretPaths({})).toEqual([]);
    expect(snapshotSecretPaths(null)).toEqual([]);
  });
});
