import { describe, expect, test } from 'vitest';
import { isSecret } from '../../../src/core/secret.js';
import { revealDeep } from '../../../src/core/secret.js';
import { snapshotAttrs } from '../../../src/kinds/snapshot-policy/attrs.js';
import { desiredSnapshotPolicies } from '../../../src/kinds/snapshot-policy/normalise.js';
import { configView, parseConfigWrite } from '../../../src/server/snapshots/config.js';
import type { JsonObject } from '../../../src/server/util/json.js';
import { ctx, LOCAL, policy, snapshotDocs } from './docs.js';

const SA_KEY = JSON.stringify({ type: 'service_account', client_email: 'a@b', private_key: 'pk' });

async function desiredOf(text: string, env: NodeJS.ProcessEnv = {}) {
  const state = desiredSnapshotPolicies(await snapshotDocs([text], env), ctx);
  return state.resources[0]!;
}

/** What the embedded server stores and reads back for the body lockstep sends. */
function serverReadBack(body: Record<string, unknown>): JsonObject {
  const parsed = parseConfigWrite(revealDeep(body) as JsonObject);
  if (!parsed.ok) throw new Error(parsed.errors.join('; '));
  return configView(parsed.config);
}

describe('desired snapshot.config', () => {
  test('a natural local manifest: durations and sizes in the server form, defaults filled in', async () => {
    const r = await desiredOf(policy('hourly', ...LOCAL));
    expect(r.address.toString()).toBe('default:sys/storage/raft/snapshot-auto/config/hourly');
    expect(r.resourceType).toBe('snapshot.config');
    expect(r.attrs).toEqual({
      interval: 3600,
      retain: 1,
      path_prefix: '/var/snap',
      file_prefix: 'vault-snapshot',
      storage_type: 'local',
      local_max_space: 10737418240,
    });
    expect(r.writeOnly).toEqual({});
    expect(r.sensitiveFields).toEqual([]);
  });

  test.each([
    ['local', [...LOCAL, 'retain: "3"', 'file_prefix: db']],
    ['local, seconds and bytes', ['interval: "86400"', 'storage_type: local', 'path_prefix: /s/', 'local_max_space: "500MB"']],
    ['provA-s3', ['interval: 1h30m', 'storage_type: provA-s3', 'path_prefix: db', 'provA_s3_bucket: b', 'provA_s3_region: eu-west-1',
      'provA_access_key_id: AKIA', 'provA_secret_access_key: ${env:S}', 'provA_session_token: ${env:T}', 'provA_s3_force_path_style: "true"',
      'provA_s3_enable_kms: true', 'provA_s3_kms_key: alias/k', 'provA_s3_endpoint: http://127.0.0.1:9000']],
    ['provA-s3, provider authentication', ['interval: 7d', 'storage_type: provA-s3', 'path_prefix: db/', 'provA_s3_bucket: b', 'provA_s3_region: r', 'provA_s3_server_side_encryption: "true"']],
    ['provB-blob', ['interval: 1h', 'storage_type: provB-blob', 'path_prefix: p/', 'provB_container_name: c', 'provB_account_name: a',
      'provB_account_key: ${env:K}', 'provB_blob_environment: PROVBPUBLICCLOUD']],
    ['provC-gcs', ['interval: 1h', 'storage_type: provC-gcs', 'path_prefix: p/', 'provC_gcs_bucket: b', 'provC_service_account_key: ${env:SA}',
      'provC_endpoint: http://127.0.0.1:4443', 'provC_disable_tls: false']],
    ['provC-gcs, provider authentication', ['interval: 1h', 'storage_type: provC-gcs', 'path_prefix: p/', 'provC_gcs_bucket: b']],
  ])('%s: what the server reads back normalises to exactly the desired attrs', async (_label, lines) => {
    const r = await desiredOf(policy('p', ...lines), { S: 'secret', T: 'token', K: 'a2V5', SA: SA_KEY });
    const readBack = serverReadBack({ ...r.attrs, ...r.writeOnly });
    expect(snapshotAttrs(readBack)).toEqual(r.attrs);
    // Credentials read back redacted and are never compared.
    for (const field of r.sensitiveFields) expect(r.attrs).not.toHaveProperty(field);
    // #14.3: a credential the manifest does not set is sent empty, and reads back as unset.
    for (const field of Object.keys(r.writeOnly)) expect(readBack[field]).toBe(r.writeOnly[field] === '' ? undefined : 'redacted');
  });

  test('credentials are write-only Secrets; every credential field of the type is sensitive', async () => {
    const r = await desiredOf(policy('p', 'interval: 1h', 'storage_type: provA-s3', 'path_prefix: p', 'provA_s3_bucket: b', 'provA_s3_region: r',
      'provA_access_key_id: AKIA', 'provA_secret_access_key: ${env:S}'), { S: 'canary' });
    expect(Object.keys(r.writeOnly).sort()).toEqual(['provA_secret_access_key', 'provA_session_token']);
    expect(r.writeOnly['provA_session_token']).toBe(''); // #14.3: not set, so cleared
    expect(isSecret(r.writeOnly['provA_secret_access_key'])).toBe(true);
    expect(r.sensitiveFields).toEqual(['provA_secret_access_key', 'provA_session_token']);
    expect(JSON.stringify(r)).not.toContain('canary');
    expect(r.attrs['provA_access_key_id']).toBe('AKIA'); // an identifier, compared
  });

  test('the same values written differently give the same attrs', async () => {
    const a = await desiredOf(policy('p', 'interval: 1h', 'storage_type: local', 'path_prefix: /s', 'local_max_space: 1GiB', 'retain: 1', 'file_prefix: vault-snapshot'));
    const b = await desiredOf(policy('p', 'interval: "3600"', 'storage_type: local', 'path_prefix: /s', 'local_max_space: "1073741824"'));
    const c = await desiredOf(policy('p', 'interval: 60m', 'storage_type: local', 'path_prefix: /s', 'local_max_space: 1024 MiB'));
    expect(b.attrs).toEqual(a.attrs);
    expect(c.attrs).toEqual(a.attrs);
  });

  test('one collection per cluster, in the root namespace; prune from a document or --prune', async () => {
    const east = `apiVersion: lockstep/v1\nkind: SnapshotPolicy\nname: n\ncluster: east\nprune: true\nconfig:\n${LOCAL.map((l) => `  ${l}`).join('\n')}\n`;
    const placed = (await snapshotDocs([policy('a', ...LOCAL), policy('b', ...LOCAL), east]))
      // A cluster's default namespace, filled in by placement, does not apply to snapshot policies.
      .map((d) => ({ ...d, data: { ...d.data, namespace: 'team-a' } }));
    const state = desiredSnapshotPolicies(placed, ctx);
    expect(state.resources.map((r) => r.address.toString())).toEqual([
      'default:sys/storage/raft/snapshot-auto/config/a',
      'default:sys/storage/raft/snapshot-auto/config/b',
      'east:sys/storage/raft/snapshot-auto/config/n',
    ]);
    expect(state.collections.map((c) => [c.address.toString(), c.prune])).toEqual([
      ['default:sys/storage/raft/snapshot-auto/config', false],
      ['east:sys/storage/raft/snapshot-auto/config', true],
    ]);
    const docs = placed;
    expect(desiredSnapshotPolicies(docs, { ...ctx, prune: true }).collections.every((c) => c.prune)).toBe(true);
  });

  test('inputs are not mutated', async () => {
    const docs = await snapshotDocs([policy('a', ...LOCAL)]);
    const before = JSON.stringify(docs.map((d) => d.data));
    desiredSnapshotPolicies(docs, ctx);
    expect(JSON.stringify(docs.map((d) => d.data))).toBe(before);
  });
});

describe('live snapshot.config', () => {
  test('fields of other storage types (kept after a type change) and unknown fields are ignored', () => {
    expect(snapshotAttrs({ interval: 60, retain: 2, path_prefix: '/s', file_prefix: 'x', storage_type: 'local', local_max_space: 5, provA_s3_bucket: 'old', extra: 1 })).toEqual({
      interval: 60, retain: 2, path_prefix: '/s', file_prefix: 'x', storage_type: 'local', local_max_space: 5,
    });
  });
  test('empty and missing values take the defaults; surprising values stay visible', () => {
    expect(snapshotAttrs({ interval: '1h', path_prefix: 'p', file_prefix: '', storage_type: 'provC-gcs', provC_gcs_bucket: 'b', provC_disable_tls: 'maybe' })).toEqual({
      interval: 3600, retain: 1, path_prefix: 'p', file_prefix: 'vault-snapshot', storage_type: 'provC-gcs', provC_gcs_bucket: 'b', provC_endpoint: '', provC_disable_tls: 'maybe',
    });
  });
});
