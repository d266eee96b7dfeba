/**
 * Canary: secret values (S3 secret access key and session token, blob account key, GCS
 * service-account key) never appear in findings, descriptions or error messages, whether the
 * destination works, refuses, is missing, unreachable or misconfigured, and whether the
 * secrets arrive as plain strings or as Secret objects. Some cases put a secret's text where
 * an SDK message is sure to quote it (a bucket named like the secret) to prove the scrubbing.
 */
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openObjectStore, type SnapshotStorageConfig } from '../../../src/adapters/storage/index.js';
import { checkSnapshotDestination, checkSnapshotStatus, type SnapshotCheckConfig } from '../../../src/check/snapshot/index.js';
import { Secret } from '../../../src/core/secret.js';
import { startFakeGcs, type FakeGcs } from '../../fakes/gcs/server.js';
import { fakeServiceAccountKey } from '../../fakes/gcs/service-account.js';
import { startAzurite, type Azurite } from '../../support/azurite.js';
import { startS3rver, type S3rver } from '../../support/s3rver.js';

const hex = (n: number) => randomBytes(n).toString('hex');
// Lowercase and hyphens only: valid as an S3 bucket name too.
const S3_SECRET = `canary-s3-secret-${hex(8)}`;
const S3_SESSION = `canary-s3-session-${hex(8)}`;
const AZ_KEY = Buffer.from(`canary-account-key-${hex(16)}`).toString('base64');
const SA_KEY = fakeServiceAccountKey();
const SA = JSON.parse(SA_KEY) as { private_key: string; private_key_id: string };
/** Distinctive pieces of each secret: none may appear anywhere. */
const CANARIES = [S3_SECRET, S3_SESSION, AZ_KEY, SA_KEY, SA.private_key_id, SA.private_key.split('\n')[1]!];

let s3: S3rver;
let az: Azurite;
let gcs: FakeGcs;
let guardedGcs: FakeGcs;

beforeAll(async () => {
  [s3, az, gcs, guardedGcs] = await Promise.all([
    startS3rver(),
    startAzurite(),
    startFakeGcs({ buckets: ['snapshots'] }),
    startFakeGcs({ buckets: ['snapshots'], bearerToken: 'not-what-the-sdk-sends' }),
  ]);
});
afterAll(async () => {
  await Promise.all([s3?.stop(), az?.stop(), gcs?.stop(), guardedGcs?.stop()]);
});

function expectNoCanary(label: string, value: unknown): void {
  const text = typeof value === 'string' ? value : JSON.stringify(value);
  for (const c of CANARIES) expect(text.includes(c), `${label} leaks a secret: ${text}`).toBe(false);
}

function s3Config(over: Partial<SnapshotStorageConfig> = {}): SnapshotStorageConfig {
  // s3rver checks the key id, not the signature: any secret works against it.
  return s3.config({ provA_secret_access_key: S3_SECRET, provA_session_token: S3_SESSION, ...over });
}
function azConfig(over: Partial<SnapshotStorageConfig> = {}): SnapshotStorageConfig {
  return az.config({ provB_account_key: AZ_KEY, ...over });
}
function gcsConfig(over: Partial<SnapshotStorageConfig> = {}): SnapshotStorageConfig {
  return { storage_type: 'provC-gcs', path_prefix: 'snaps/', provC_gcs_bucket: 'snapshots', provC_endpoint: gcs.endpoint, provC_service_account_key: SA_KEY, ...over };
}

/** Every secret field wrapped as a Secret, as the reconciler holds resolved references. */
function wrapped(config: SnapshotStorageConfig): SnapshotCheckConfig {
  const out: SnapshotCheckConfig = { ...config };
  for (const f of ['provA_secret_access_key', 'provA_session_token', 'provB_account_key', 'provC_service_account_key'] as const) {
    const v = config[f];
    if (v !== undefined) out[f] = new Secret(v, `env:${f.toUpperCase()}`);
  }
  return out;
}

const cases: Array<[string, () => SnapshotStorageConfig]> = [
  ['s3 healthy', () => s3Config()],
  ['s3 bucket named like the secret (missing)', () => s3Config({ provA_s3_bucket: S3_SECRET })],
  ['s3 unknown key id', () => s3Config({ provA_access_key_id: 'WRONGKEY' })],
  ['s3 unreachable', () => s3Config({ provA_s3_endpoint: 'http://127.0.0.1:1' })],
  ['s3 invalid (sse + kms)', () => s3Config({ provA_s3_enable_kms: true, provA_s3_server_side_encryption: true })],
  ['blob wrong key', () => azConfig()],
  ['blob missing container', () => azConfig({ provB_container_name: 'absent' })],
  ['blob unreachable', () => azConfig({ provB_endpoint: 'http://127.0.0.1:1/devstoreaccount1' })],
  ['blob key that is not base64', () => azConfig({ provB_account_key: `${AZ_KEY}%%%` })],
  ['gcs healthy', () => gcsConfig()],
  ['gcs bucket named like the key id (missing)', () => gcsConfig({ provC_gcs_bucket: SA.private_key_id })],
  ['gcs credentials refused', () => gcsConfig({ provC_endpoint: guardedGcs.endpoint })],
  ['gcs key is not JSON', () => gcsConfig({ provC_service_account_key: SA_KEY.slice(0, -10) })],
  ['gcs unreachable', () => gcsConfig({ provC_endpoint: 'http://127.0.0.1:1' })],
];

describe('canary: no secret in findings', () => {
  for (const [label, config] of cases) {
    it(label, async () => {
      for (const c of [config(), wrapped(config())]) {
        const findings = await checkSnapshotDestination(c, { timeoutMs: 3000 });
        expect(findings.length).toBeGreaterThan(0);
        expectNoCanary(label, findings);
      }
    });
  }

  it('proves the scrubbing: text that would quote the secret says (sensitive)', async () => {
    const findings = await checkSnapshotDestination(s3Config({ provA_s3_bucket: S3_SECRET }));
    expect(findings[0]!.subject).toBe(`s3://(sensitive)/snapshots/ (endpoint ${s3.endpoint})`);
    const err = await openObjectStore(s3Config({ provA_s3_bucket: S3_SECRET }), { attempts: 1 })
      .put('snapshots/x', Buffer.from('x'))
      .catch((e: Error) => e);
    expect((err as Error).message).toMatch(/^write s3:\/\/\(sensitive\)\/snapshots\/x failed: /);
  });

  it('healthy destinations really were healthy with the canary credentials', async () => {
    for (const c of [s3Config(), gcsConfig()]) expect((await checkSnapshotDestination(c)).every((f) => f.ok)).toBe(true);
  });

  it('status findings scrub secrets echoed by the server', () => {
    const status = { last_snapshot_error: `auth failed with ${S3_SECRET} / ${AZ_KEY} / ${SA.private_key_id}`, consecutive_errors: 1 };
    for (const config of [s3Config(), azConfig(), gcsConfig()]) {
      const all = { ...config, provA_secret_access_key: S3_SECRET, provB_account_key: AZ_KEY, provC_service_account_key: SA_KEY, interval: 3600 };
      expectNoCanary('status', checkSnapshotStatus(status, all, new Date()));
      expectNoCanary('status (Secret)', checkSnapshotStatus(status, wrapped(all), new Date()));
    }
  });
});

describe('canary: no secret in adapter errors or descriptions', () => {
  for (const [label, config] of cases) {
    it(label, async () => {
      let store;
      try {
        store = openObjectStore(config(), { attempts: 1, timeoutMs: 3000 });
      } catch (err) {
        expectNoCanary(`${label} (open)`, `${String(err)} ${(err as Error).stack} ${JSON.stringify(err)}`);
        return;
      }
      expectNoCanary(`${label} (describe)`, `${store.describe()} ${store.urlOf('x')}`);
      const name = `snaps/canary-${hex(4)}`;
      for (const op of [() => store.put(name, Buffer.from('x')), () => store.get(name), () => store.list('snaps/'), () => store.remove(name)]) {
        try {
          await op();
        } catch (err) {
          expectNoCanary(`${label} (error)`, `${String(err)} ${(err as Error).stack} ${JSON.stringify(err)}`);
        }
      }
    });
  }
});
