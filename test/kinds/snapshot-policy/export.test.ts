import { describe, expect, test } from 'vitest';
import { Secret } from '../../../src/core/secret.js';
import { EnvReference, manifestText } from '../../../src/load/manifest-writer.js';
import { snapshotAttrs } from '../../../src/kinds/snapshot-policy/attrs.js';
import { envName, exportDocument, exportSnapshotPolicies } from '../../../src/kinds/snapshot-policy/export.js';
import { ApiError } from '../../../src/client/errors.js';
import type { ClusterClient } from '../../../src/client/types.js';
import { desiredSnapshotPolicies } from '../../../src/kinds/snapshot-policy/normalise.js';
import { ctx, snapshotDocs } from './docs.js';

const cluster = { name: 'east', address: 'http://x/v1', auth: { method: 'token' as const, token: new Secret('t', 'test') }, authSource: 'test', insecureSkipVerify: false };

describe('export', () => {
  test('a local configuration: natural forms, defaults left out', () => {
    const doc = exportDocument(cluster, 'hourly', { interval: 86400, retain: 1, path_prefix: '/s', file_prefix: 'vault-snapshot', storage_type: 'local', local_max_space: 10737418240 });
    expect(doc).toEqual({
      apiVersion: 'lockstep/v1',
      kind: 'SnapshotPolicy',
      cluster: 'east',
      name: 'hourly',
      config: { interval: '24h', path_prefix: '/s', storage_type: 'local', local_max_space: '10GiB' },
    });
  });

  test('held credentials become references; the required blob key always does', () => {
    const s3 = exportDocument(cluster, 'off-site', {
      interval: 3600, retain: 3, path_prefix: 'db/', file_prefix: 'x', storage_type: 'provA-s3', provA_s3_bucket: 'b', provA_s3_region: 'r',
      provA_access_key_id: 'AKIA', provA_secret_access_key: 'redacted', provA_s3_endpoint: '', provA_s3_disable_tls: false,
      provA_s3_force_path_style: true, provA_s3_enable_kms: false, provA_s3_server_side_encryption: false, provA_s3_kms_key: '',
    });
    expect(s3['config']).toEqual({
      interval: '1h', retain: 3, path_prefix: 'db/', file_prefix: 'x', storage_type: 'provA-s3', provA_s3_bucket: 'b', provA_s3_region: 'r',
      provA_access_key_id: 'AKIA', provA_s3_force_path_style: true, provA_secret_access_key: new EnvReference('EAST_SNAPSHOT_OFF_SITE_PROVA_SECRET_ACCESS_KEY'),
    });
    const blob = exportDocument(cluster, 'b', { interval: 60, retain: 1, path_prefix: 'p/', file_prefix: 'vault-snapshot', storage_type: 'provB-blob', provB_container_name: 'c', provB_account_name: 'a' });
    expect((blob['config'] as Record<string, unknown>)['provB_account_key']).toEqual(new EnvReference('EAST_SNAPSHOT_B_PROVB_ACCOUNT_KEY'));
    expect(envName('default', 'a.b', 'provC_service_account_key')).toBe('DEFAULT_SNAPSHOT_A_B_PROVC_SERVICE_ACCOUNT_KEY');
  });

  test('round trip: the exported document normalises back to the live attrs', async () => {
    const live = { interval: 5400, retain: 2, path_prefix: 'p/', file_prefix: 'vault-snapshot', storage_type: 'provC-gcs', provC_gcs_bucket: 'b', provC_service_account_key: 'redacted', provC_endpoint: 'http://127.0.0.1:1', provC_disable_tls: true };
    const doc = exportDocument({ ...cluster, name: 'default' }, 'g', live);
    const sa = JSON.stringify({ type: 'service_account', client_email: 'a@b', private_key: 'k' });
    const [resource] = desiredSnapshotPolicies(await snapshotDocs([manifestText([doc])], { DEFAULT_SNAPSHOT_G_PROVC_SERVICE_ACCOUNT_KEY: sa }), ctx).resources;
    expect(resource!.attrs).toEqual(snapshotAttrs(live));
    expect(Object.keys(resource!.writeOnly)).toEqual(['provC_service_account_key']);
  });

  test('a token without sudo gets the sudo explanation, not a bare 403', async () => {
    const denied = new ApiError({ cluster: 'east', method: 'LIST', url: 'http://x/v1/sys/storage/raft/snapshot-auto/config', status: 403, errors: ['permission denied'], message: 'LIST ...: 403 Forbidden: permission denied' });
    const client = { cluster: 'east', request: () => Promise.reject(denied) } as unknown as ClusterClient;
    await expect(exportSnapshotPolicies(client, cluster)).rejects.toThrow(
      'east: managing snapshot policies needs a token with the sudo capability on sys/storage/raft/snapshot-auto (the server answered LIST http://x/v1/sys/storage/raft/snapshot-auto/config: 403 permission denied)',
    );
    const other = new ApiError({ cluster: 'east', method: 'LIST', url: 'u', status: 500, errors: [], message: 'boom' });
    await expect(exportSnapshotPolicies({ cluster: 'east', request: () => Promise.reject(other) } as unknown as ClusterClient, cluster)).rejects.toBe(other);
  });
});
