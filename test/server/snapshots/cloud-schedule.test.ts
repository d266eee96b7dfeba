/**
 * Real snapshots on a 1 s schedule (on a clock the test advances) to s3rver (provA-s3),
 * azurite (provB-blob) and the GCS fake (provC-gcs): objects appear, retention keeps exactly `retain`, and broken destinations show
 * in the status. Canaries: no secret value (S3 secret key and session token, blob account
 * keys, GCS service-account key) appears in any response or log line, even where an SDK
 * message would quote one (a bucket named like the secret).
 */
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openObjectStore, snapshotListPrefix, snapshotObjects, type SnapshotStorageConfig } from '../../../src/adapters/storage/index.js';
import { decodeSnapshot } from '../../../src/server/snapshots/format.js';
import { snapshotKeyFromShares } from '../../../src/server/snapshots/snapshot-key.js';
import { startFakeGcs, type FakeGcs } from '../../fakes/gcs/server.js';
import { fakeServiceAccountKey } from '../../fakes/gcs/service-account.js';
import { AZURITE_KEY, startAzurite, type Azurite } from '../../support/azurite.js';
import { startS3rver, type S3rver } from '../../support/s3rver.js';
import { ManualClock } from '../../support/manual-clock.js';
import { startTestServer } from '../helpers.js';
import { CONFIG, expectNoCanary, recordingClient, STATUS, writtenUrls, type RecordingClient } from './support.js';

const hex = (n: number) => randomBytes(n).toString('hex');
// Lowercase and hyphens only: valid as an S3 bucket name too.
const S3_SECRET = `canary-s3-secret-${hex(8)}`;
const S3_SESSION = `canary-s3-session-${hex(8)}`;
const WRONG_BLOB_KEY = Buffer.from(`canary-account-key-${hex(16)}`).toString('base64');
const SA_KEY = fakeServiceAccountKey();
const SA = JSON.parse(SA_KEY) as { private_key: string; private_key_id: string };
const CANARIES = [S3_SECRET, S3_SESSION, AZURITE_KEY, WRONG_BLOB_KEY, SA_KEY, SA.private_key_id, SA.private_key.split('\n')[1]!];

let s3: S3rver;
let az: Azurite;
let gcs: FakeGcs;
beforeAll(async () => {
  [s3, az, gcs] = await Promise.all([startS3rver(), startAzurite(), startFakeGcs({ buckets: ['snapshots'] })]);
});
afterAll(async () => {
  await Promise.all([s3?.stop(), az?.stop(), gcs?.stop()]);
});

interface Case {
  good: () => SnapshotStorageConfig;
  broken: () => SnapshotStorageConfig;
  secretFields: string[];
  urlPattern: RegExp;
}

const cases: Record<string, Case> = {
  'provA-s3 (s3rver)': {
    good: () => s3.config({ provA_secret_access_key: S3_SECRET, provA_session_token: S3_SESSION }),
    // The bucket is named like the secret: every SDK message about it would quote it.
    broken: () => s3.config({ provA_secret_access_key: S3_SECRET, provA_s3_bucket: S3_SECRET }),
    secretFields: ['provA_secret_access_key', 'provA_session_token'],
    urlPattern: /^s3:\/\/snapshots\/snapshots\/vault-snapshot-\d+\.snap$/,
  },
  'provB-blob (azurite)': {
    good: () => az.config(),
    broken: () => az.config({ provB_account_key: WRONG_BLOB_KEY }),
    secretFields: ['provB_account_key'],
    urlPattern: /^http:\/\/127\.0\.0\.1:\d+\/devstoreaccount1\/snapshots\/snapshots\/vault-snapshot-\d+\.snap$/,
  },
  'provC-gcs (fake)': {
    good: () => ({ storage_type: 'provC-gcs', path_prefix: 'team/snaps/', provC_gcs_bucket: 'snapshots', provC_endpoint: gcs.endpoint, provC_service_account_key: SA_KEY }),
    broken: () => ({ storage_type: 'provC-gcs', path_prefix: 'team/snaps/', provC_gcs_bucket: 'absent', provC_endpoint: gcs.endpoint, provC_service_account_key: SA_KEY }),
    secretFields: ['provC_service_account_key'],
    urlPattern: /^gs:\/\/snapshots\/team\/snaps\/vault-snapshot-\d+\.snap$/,
  },
};

describe.each(Object.entries(cases))('%s snapshots', (_label, c) => {
  it('writes every interval, keeps exactly retain, reports failures, never shows a secret', async () => {
    const clock = new ManualClock();
    const server = await startTestServer({ clock });
    const responses: string[] = [];
    const api: RecordingClient = recordingClient(server.clusters[0]!, responses);
    let closed = false;
    try {
      const good = c.good();
      expect((await api.post(`${CONFIG}/cloud`, { ...good, interval: 1, retain: 2 })).status).toBe(204);
      expect((await api.post(`${CONFIG}/broken`, { ...c.broken(), interval: 1 })).status).toBe(204);

      const read = (await api.get(`${CONFIG}/cloud`)).body.data;
      for (const field of c.secretFields) expect(read[field]).toBe('redacted');
      await api.list(CONFIG);

      for (let n = 1; n <= 4; n++) {
        await clock.advance(1000);
        expect(writtenUrls(server.logs, 'cloud')).toHaveLength(n);
      }
      const status = (await api.get(`${STATUS}/cloud`)).body.data;
      expect(status.last_snapshot_error).toBe('');
      expect(status.consecutive_errors).toBe(0);
      expect(status.last_snapshot_url).toMatch(c.urlPattern);

      const broken = (await api.get(`${STATUS}/broken`)).body.data;
      expect(broken.consecutive_errors).toBe(4);
      expect(broken.last_snapshot_error).not.toBe('');

      await server.close();
      closed = true;
      const written = writtenUrls(server.logs, 'cloud');
      const store = openObjectStore(good);
      const objects = snapshotObjects(await store.list(snapshotListPrefix(good.path_prefix, 'vault-snapshot')), 'vault-snapshot', good.path_prefix);
      expect(objects.map((o) => store.urlOf(o.name))).toEqual(written.slice(-2));
      const newest = decodeSnapshot(await store.get(objects[1]!.name), [(await snapshotKeyFromShares(server.clusters[0]!.keyShares))!]);
      expect(newest.entries.map(([k]) => k)).toContain('core/snapshot-auto/config/cloud');

      expectNoCanary('a response', responses, CANARIES);
      expectNoCanary('a log line', server.logs, CANARIES);
    } finally {
      if (!closed) await server.close();
    }
  });
});
