import { describe, expect, test } from 'vitest';
import { Diagnostics } from '../../../src/core/diagnostics.js';
import { validateSnapshotPolicies } from '../../../src/kinds/snapshot-policy/rules.js';
import { ctx, LOCAL, policy, snapshotDocs } from './docs.js';

/** Formatted diagnostics of the rules over the given files. */
async function check(files: string[], env: NodeJS.ProcessEnv = {}): Promise<string[]> {
  const diags = new Diagnostics();
  validateSnapshotPolicies(await snapshotDocs(files, env), diags, ctx);
  return diags.format();
}

const SA_KEY = JSON.stringify({ type: 'service_account', client_email: 'a@b', private_key: 'canary-private-key' });

describe('natural, valid manifests', () => {
  test('each storage type', async () => {
    const lines = await check([
      policy('local', ...LOCAL),
      policy('s3', 'interval: 24h', 'retain: 7', 'storage_type: provA-s3', 'path_prefix: db', 'provA_s3_bucket: b', 'provA_s3_region: eu-west-1',
        'provA_access_key_id: AKIA', 'provA_secret_access_key: ${env:S}', 'provA_s3_enable_kms: "true"', 'provA_s3_kms_key: alias/snap'),
      policy('s3-sdk-auth', 'interval: 3600', 'storage_type: provA-s3', 'path_prefix: db/', 'provA_s3_bucket: b', 'provA_s3_region: eu-west-1', 'provA_s3_server_side_encryption: true'),
      policy('blob', 'interval: 1h', 'storage_type: provB-blob', 'path_prefix: snaps/', 'provB_container_name: c', 'provB_account_name: acct', 'provB_account_key: ${env:K}', 'provB_blob_environment: provbpubliccloud'),
      policy('gcs', 'interval: 1h', 'storage_type: provC-gcs', 'path_prefix: snaps/', 'provC_gcs_bucket: b', 'provC_service_account_key: ${env:SA}'),
      policy('gcs-sdk-auth', 'interval: 1h', 'storage_type: provC-gcs', 'path_prefix: snaps/', 'provC_gcs_bucket: b', 'provC_endpoint: 127.0.0.1:4443', 'provC_disable_tls: true'),
    ], { S: 'secret', K: 'key', SA: SA_KEY });
    expect(lines).toEqual([]);
  });
});

describe('common fields', () => {
  test('interval, path_prefix and storage_type are required; each missing field is its own diagnostic', async () => {
    expect(await check([policy('p', 'retain: 2')])).toEqual([
      'f0.yaml:5:3: error: missing required field "interval" in config',
      'f0.yaml:5:3: error: missing required field "path_prefix" in config',
      'f0.yaml:5:3: error: missing required field "storage_type" in config',
    ]);
  });
  test('interval is a positive duration in whole seconds', async () => {
    const env = { A: 'soon', B: '1500ms', C: '0' };
    expect(await check([policy('a', 'interval: ${env:A}', ...LOCAL.slice(1)), policy('b', 'interval: ${env:B}', ...LOCAL.slice(1)), policy('c', 'interval: ${env:C}', ...LOCAL.slice(1))], env)).toEqual([
      'f0.yaml:5:13: error: config.interval: must be a duration (e.g. 30m, 24h) or a whole number of seconds',
      'f1.yaml:5:13: error: config.interval: must be a whole number of seconds (the server drops fractions of a second)',
      'f2.yaml:5:13: error: config.interval: must be at least 1 second',
    ]);
  });
  test('retain is at least 1', async () => {
    expect(await check([policy('p', ...LOCAL, 'retain: 0'), policy('q', ...LOCAL, 'retain: ${env:R}')], { R: 'many' })).toEqual([
      'f0.yaml:9:11: error: config.retain: must be 1 or more (the snapshot just written is always kept)',
      'f1.yaml:9:11: error: config.retain: must be a whole number, 1 or more',
    ]);
  });
  test('storage_type must be known (a reference resolving to anything else too)', async () => {
    expect(await check([policy('p', 'interval: 1h', 'storage_type: ${env:T}', 'path_prefix: x/')], { T: 'provA_s3' })).toEqual([
      'f0.yaml:6:17: error: config.storage_type: must be one of local, provA-s3, provB-blob, provC-gcs (did you mean "provA-s3"?)',
    ]);
  });
  test('file_prefix is not empty and holds no "/"', async () => {
    expect(await check([policy('p', ...LOCAL, 'file_prefix: a/b'), policy('q', ...LOCAL, 'file_prefix: ""')])).toEqual([
      'f0.yaml:9:16: error: config.file_prefix: must not contain "/" (directories belong in path_prefix)',
      'f1.yaml:9:16: error: config.file_prefix: must not be empty (leave it out for the default vault-snapshot)',
    ]);
  });
  test('required values must not be empty', async () => {
    expect(await check([policy('p', 'interval: 1h', 'storage_type: local', 'path_prefix: ""', 'local_max_space: 1MB')])).toEqual([
      'f0.yaml:7:16: error: config.path_prefix: must not be empty',
    ]);
  });
});

describe('path_prefix', () => {
  test('provB-blob and provC-gcs need a trailing "/"; local and provA-s3 do not', async () => {
    expect(await check([
      policy('g', 'interval: 1h', 'storage_type: provC-gcs', 'path_prefix: snaps', 'provC_gcs_bucket: b'),
      policy('b', 'interval: 1h', 'storage_type: provB-blob', 'path_prefix: snaps', 'provB_container_name: c', 'provB_account_name: a', 'provB_account_key: ${env:K}'),
      policy('s', 'interval: 1h', 'storage_type: provA-s3', 'path_prefix: snaps', 'provA_s3_bucket: b', 'provA_s3_region: r'),
      policy('l', 'interval: 1h', 'storage_type: local', 'path_prefix: /var/snap/', 'local_max_space: 1'),
    ], { K: 'k' })).toEqual([
      'f0.yaml:7:16: error: config.path_prefix: must end with "/" for storage_type provC-gcs (write "snaps/")',
      'f1.yaml:7:16: error: config.path_prefix: must end with "/" for storage_type provB-blob (write "snaps/")',
    ]);
  });
  test('a relative local directory is a warning', async () => {
    expect(await check([policy('l', 'interval: 1h', 'storage_type: local', 'path_prefix: snaps', 'local_max_space: 1')])).toEqual([
      'f0.yaml:7:16: warning: config.path_prefix: is a relative directory: the server resolves it against its own working directory',
    ]);
  });
});

describe('storage types', () => {
  test('local needs local_max_space, a positive size', async () => {
    expect(await check([
      policy('a', 'interval: 1h', 'storage_type: local', 'path_prefix: /s'),
      policy('b', 'interval: 1h', 'storage_type: local', 'path_prefix: /s', 'local_max_space: 10G'),
      policy('c', 'interval: 1h', 'storage_type: local', 'path_prefix: /s', 'local_max_space: 0'),
      policy('d', 'interval: 1h', 'storage_type: local', 'path_prefix: /s', 'local_max_space: 1.5B'),
    ])).toEqual([
      'f0.yaml:5:3: error: missing required field "local_max_space" in config (required for storage_type local)',
      'f1.yaml:8:20: error: config.local_max_space: must be a size in bytes: a whole number, or a number with a unit such as 10GiB or 500MB',
      'f2.yaml:8:20: error: config.local_max_space: must be more than 0 bytes (every snapshot attempt would fail)',
      'f3.yaml:8:20: error: config.local_max_space: must come to a whole number of bytes',
    ]);
  });
  test('provA-s3 needs bucket and region; encryption and credential combinations', async () => {
    expect(await check([
      policy('a', 'interval: 1h', 'storage_type: provA-s3', 'path_prefix: p'),
      policy('b', 'interval: 1h', 'storage_type: provA-s3', 'path_prefix: p', 'provA_s3_bucket: b', 'provA_s3_region: r',
        'provA_s3_server_side_encryption: true', 'provA_s3_enable_kms: true'),
      policy('c', 'interval: 1h', 'storage_type: provA-s3', 'path_prefix: p', 'provA_s3_bucket: b', 'provA_s3_region: r',
        'provA_s3_kms_key: alias/x', 'provA_access_key_id: AKIA'),
      policy('d', 'interval: 1h', 'storage_type: provA-s3', 'path_prefix: p', 'provA_s3_bucket: b', 'provA_s3_region: r',
        'provA_secret_access_key: ${env:S}', 'provA_session_token: ${env:T}'),
    ], { S: 's', T: 't' })).toEqual([
      'f0.yaml:5:3: error: missing required field "provA_s3_bucket" in config (required for storage_type provA-s3)',
      'f0.yaml:5:3: error: missing required field "provA_s3_region" in config (required for storage_type provA-s3)',
      'f1.yaml:10:36: error: config.provA_s3_server_side_encryption: cannot be combined with provA_s3_enable_kms (choose AES256 or KMS encryption)',
      'f2.yaml:10:21: error: config.provA_s3_kms_key: is used only with provA_s3_enable_kms: true',
      "f2.yaml:11:24: error: config.provA_access_key_id: requires provA_secret_access_key (or leave both out to use the provider's own authentication)",
      'f3.yaml:10:28: error: config.provA_secret_access_key: requires provA_access_key_id',
      'f3.yaml:11:24: error: config.provA_session_token: requires provA_access_key_id and provA_secret_access_key',
    ]);
  });
  test('provC-gcs needs a bucket; its key must be a service account key in JSON (never quoted)', async () => {
    const lines = await check([
      policy('a', 'interval: 1h', 'storage_type: provC-gcs', 'path_prefix: p/'),
      policy('b', 'interval: 1h', 'storage_type: provC-gcs', 'path_prefix: p/', 'provC_gcs_bucket: b', 'provC_service_account_key: ${env:BAD}'),
      policy('c', 'interval: 1h', 'storage_type: provC-gcs', 'path_prefix: p/', 'provC_gcs_bucket: b', 'provC_service_account_key: ${env:ARR}'),
      policy('d', 'interval: 1h', 'storage_type: provC-gcs', 'path_prefix: p/', 'provC_gcs_bucket: b', 'provC_service_account_key: ${env:PART}'),
    ], { BAD: '{canary-not-json', ARR: '["canary"]', PART: '{"type":"service_account","client_email":"canary@x"}' });
    expect(lines).toEqual([
      'f0.yaml:5:3: error: missing required field "provC_gcs_bucket" in config (required for storage_type provC-gcs)',
      'f1.yaml:9:30: error: config.provC_service_account_key: is not valid JSON (a service account key file in JSON)',
      'f2.yaml:9:30: error: config.provC_service_account_key: must be a JSON object (a service account key file)',
      'f3.yaml:9:30: error: config.provC_service_account_key: is a service account key without client_email or private_key',
    ]);
    expect(lines.join('\n')).not.toContain('canary');
  });
  test('provB-blob needs container, account name and key (no fallback authentication)', async () => {
    expect(await check([
      policy('a', 'interval: 1h', 'storage_type: provB-blob', 'path_prefix: p/'),
      policy('b', 'interval: 1h', 'storage_type: provB-blob', 'path_prefix: p/', 'provB_container_name: c', 'provB_account_name: a', 'provB_account_key: ${env:K}', 'provB_blob_environment: mars', 'provB_endpoint: "ftp://x"'),
    ], { K: 'k' })).toEqual([
      'f0.yaml:5:3: error: missing required field "provB_container_name" in config (required for storage_type provB-blob)',
      'f0.yaml:5:3: error: missing required field "provB_account_name" in config (required for storage_type provB-blob)',
      'f0.yaml:5:3: error: missing required field "provB_account_key" in config (required for storage_type provB-blob)',
      'f1.yaml:11:27: error: config.provB_blob_environment: must be one of PROVBPUBLICCLOUD, PROVBUSGOVERNMENTCLOUD, PROVBCHINACLOUD, PROVBGERMANCLOUD',
      'f1.yaml:12:19: error: config.provB_endpoint: must be an http:// or https:// URL or a host[:port]',
    ]);
  });
  test('fields of another storage type are errors, each at its value', async () => {
    expect(await check([policy('p', ...LOCAL, 'provA_s3_bucket: b', 'provC_service_account_key: ${env:K}', 'provB_endpoint: x')], { K: 'k' })).toEqual([
      'f0.yaml:9:20: error: config.provA_s3_bucket: is a field of storage_type provA-s3, not local',
      'f0.yaml:10:30: error: config.provC_service_account_key: is a field of storage_type provC-gcs, not local',
      'f0.yaml:11:19: error: config.provB_endpoint: is a field of storage_type provB-blob, not local',
    ]);
  });
  test('booleans are true or false; a TLS switch without an endpoint is a warning', async () => {
    expect(await check([policy('p', 'interval: 1h', 'storage_type: provA-s3', 'path_prefix: p', 'provA_s3_bucket: b', 'provA_s3_region: r', 'provA_s3_disable_tls: ${env:B}', 'provA_s3_force_path_style: ${env:B}')], { B: 'yes' })).toEqual([
      'f0.yaml:10:25: error: config.provA_s3_disable_tls: must be true or false',
      'f0.yaml:11:30: error: config.provA_s3_force_path_style: must be true or false',
    ]);
    expect(await check([policy('p', 'interval: 1h', 'storage_type: provC-gcs', 'path_prefix: p/', 'provC_gcs_bucket: b', 'provC_disable_tls: true')])).toEqual([
      'f0.yaml:9:22: warning: config.provC_disable_tls: has no effect without provC_endpoint (it is for testing against a non-native implementation)',
    ]);
  });
});

describe('names', () => {
  test('unique per cluster, across files', async () => {
    const east = `apiVersion: lockstep/v1\nkind: SnapshotPolicy\nname: daily\ncluster: east\nconfig:\n${LOCAL.map((l) => `  ${l}`).join('\n')}\n`;
    expect(await check([policy('daily', ...LOCAL), policy('daily', ...LOCAL), east])).toEqual([
      'f1.yaml:3:7: error: name: snapshot policy "daily" is already defined at f0.yaml:3:7 (cluster default); names are unique per cluster',
    ]);
  });
  test('only the root namespace: an explicit other one is refused, a cluster default ignored', async () => {
    const doc = (ns: string) => `apiVersion: lockstep/v1\nkind: SnapshotPolicy\nname: daily${ns.length}\nnamespace: ${ns}\nconfig:\n${LOCAL.map((l) => `  ${l}`).join('\n')}\n`;
    expect(await check([doc('team-a'), doc('""')])).toEqual([
      'f0.yaml:4:12: error: namespace: snapshot policies exist only in the root namespace (sys/storage/raft is cluster-wide): leave namespace out',
    ]);
    // Placement filled in a cluster's default namespace: not written, so not an error.
    const diags = new Diagnostics();
    const placed = (await snapshotDocs([policy('daily', ...LOCAL)])).map((d) => ({ ...d, data: { ...d.data, namespace: 'team-a' } }));
    validateSnapshotPolicies(placed, diags, ctx);
    expect(diags.format()).toEqual([]);
  });
  test('a name is one path segment', async () => {
    expect(await check([policy('a/b', ...LOCAL), policy('" x"', ...LOCAL)])).toEqual([
      'f0.yaml:3:7: error: name: "a/b" must not contain "/" (it would address another object)',
      'f1.yaml:3:7: error: name: " x" must not contain spaces',
    ]);
  });
  test('documents of one cluster agree on prune', async () => {
    expect(await check([policy('a', ...LOCAL) + 'prune: true\n', policy('b', ...LOCAL) + 'prune: false\n'])).toEqual([
      'f1.yaml:9:8: error: prune: disagrees with prune: true at f0.yaml:9:8 (the snapshot policies of cluster default are one collection)',
    ]);
  });
});
