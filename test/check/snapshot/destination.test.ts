import { mkdtemp, readdir, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openObjectStore } from '../../../src/adapters/storage/index.js';
import { checkSnapshotDestination, type Finding } from '../../../src/check/snapshot/index.js';
import { unwritableDir } from '../../adapters/storage/unwritable.js';
import { startFakeGcs, type FakeGcs } from '../../fakes/gcs/server.js';
import { startAzurite, type Azurite } from '../../support/azurite.js';
import { startS3rver, type S3rver } from '../../support/s3rver.js';

const failing = (fs: Finding[]) => fs.filter((f) => !f.ok);

let base: string;
let s3: S3rver;
let az: Azurite;
let gcs: FakeGcs;

beforeAll(async () => {
  base = await mkdtemp(join(tmpdir(), 'lockstep-check-snap-'));
  [s3, az, gcs] = await Promise.all([startS3rver(), startAzurite(), startFakeGcs({ buckets: ['snapshots'] })]);
});
afterAll(async () => {
  await Promise.all([s3?.stop(), az?.stop(), gcs?.stop()]);
  await rm(base, { recursive: true, force: true });
});

describe('checkSnapshotDestination: local', () => {
  it('passes for a writable directory and leaves nothing behind', async () => {
    const dir = join(base, 'healthy');
    await checkSnapshotDestination({ storage_type: 'local', path_prefix: dir, local_max_space: 1024 * 1024 });
    const findings = await checkSnapshotDestination({ name: 'hourly', storage_type: 'local', path_prefix: dir, local_max_space: 1024 * 1024 });
    expect(failing(findings)).toEqual([]);
    expect(findings.every((f) => f.subject === `file://${dir}`)).toBe(true);
    const text = findings.map((f) => f.message).join('\n');
    expect(text).toMatch(/reachable and writable/);
    expect(text).toMatch(/snapshots use 0 bytes of local_max_space 1\.0 MiB/);
    expect(text).toMatch(/the filesystem has .* free/);
  });

  it('does not leave behind the directories the probe created', async () => {
    const dir = join(base, 'not', 'yet', 'there');
    const findings = await checkSnapshotDestination({ storage_type: 'local', path_prefix: dir, local_max_space: 1e6 });
    expect(failing(findings)).toEqual([]);
    expect(findings.map((f) => f.message)).toContain('the directory does not exist yet; the first snapshot will create it');
    await expect(stat(join(base, 'not'))).rejects.toMatchObject({ code: 'ENOENT' });
  });

  it('fails for a read-only directory', async () => {
    const ro = await unwritableDir();
    try {
      const findings = await checkSnapshotDestination({ storage_type: 'local', path_prefix: ro.path, local_max_space: 1e6 });
      expect(failing(findings)).toHaveLength(1);
      expect(findings[0]!.message).toMatch(/^not writable: writing probe object .*vault-snapshot-lockstep-probe-[0-9a-f]+ failed: (EPERM|EACCES|EROFS)/);
    } finally {
      await ro.release();
    }
  });

  it('counts existing snapshots against local_max_space', async () => {
    const dir = join(base, 'full');
    const store = openObjectStore({ storage_type: 'local', path_prefix: dir });
    await store.put(join(dir, 'vault-snapshot-1.snap'), Buffer.alloc(600));
    await store.put(join(dir, 'vault-snapshot-2.snap'), Buffer.alloc(600));
    await store.put(join(dir, 'other-3.snap'), Buffer.alloc(5000)); // another prefix: not counted
    const findings = await checkSnapshotDestination({ storage_type: 'local', path_prefix: dir, local_max_space: 1000 });
    expect(failing(findings).map((f) => f.message)).toEqual([
      'snapshots use 1.2 KiB (1200 bytes), the whole local_max_space of 1000 bytes: the next snapshot will fail',
    ]);
    expect(findings.map((f) => f.message)).toContain(`2 snapshot(s) using 1200 bytes; newest ${join(dir, 'vault-snapshot-2.snap')}`);
  });

  it('fails without local_max_space, and when the disk cannot hold the allowance', async () => {
    const dir = join(base, 'space');
    const none = await checkSnapshotDestination({ storage_type: 'local', path_prefix: dir });
    expect(failing(none).map((f) => f.message)).toEqual(['local_max_space (bytes) is required for local snapshots and must be a positive number']);
    const huge = await checkSnapshotDestination({ storage_type: 'local', path_prefix: dir, local_max_space: 2 ** 60 });
    expect(failing(huge)[0]!.message).toMatch(/less than the .* local_max_space still allows/);
  });

  it('ignores a leftover probe and foreign files when counting', async () => {
    const dir = join(base, 'leftover');
    const store = openObjectStore({ storage_type: 'local', path_prefix: dir });
    await store.put(join(dir, 'vault-snapshot-lockstep-probe-dead'), Buffer.alloc(10));
    await writeFile(join(dir, 'notes.txt'), 'x');
    const findings = await checkSnapshotDestination({ storage_type: 'local', path_prefix: dir, local_max_space: 100 });
    expect(failing(findings)).toEqual([]);
    expect((await readdir(dir)).sort()).toEqual(['notes.txt', 'vault-snapshot-lockstep-probe-dead']);
  });
});

describe('checkSnapshotDestination: provA-s3 (s3rver)', () => {
  it('passes for a writable bucket and leaves no probe', async () => {
    const findings = await checkSnapshotDestination(s3.config({ path_prefix: 'check' }));
    expect(failing(findings)).toEqual([]);
    expect(findings[0]!.subject).toBe(`s3://snapshots/check (endpoint ${s3.endpoint})`);
    expect(await openObjectStore(s3.config()).list('check/')).toEqual([]);
  });

  it('fails for a missing bucket', async () => {
    const findings = await checkSnapshotDestination(s3.config({ provA_s3_bucket: 'missing-bucket' }));
    expect(failing(findings)).toHaveLength(1);
    expect(findings[0]!.message).toMatch(/^not writable: .*(NoSuchBucket|does not exist)/);
  });

  it('fails for an unknown access key (s3rver checks the key id, not the signature)', async () => {
    const findings = await checkSnapshotDestination(s3.config({ provA_access_key_id: 'WRONGKEY' }));
    expect(failing(findings)[0]!.message).toMatch(/not writable: .*(InvalidAccessKeyId|Access Key Id)/);
  });

  it('fails quickly for an unreachable endpoint', async () => {
    const started = Date.now();
    const findings = await checkSnapshotDestination(s3.config({ provA_s3_endpoint: 'http://127.0.0.1:1' }), { timeoutMs: 2000 });
    expect(failing(findings)[0]!.message).toMatch(/ECONNREFUSED/);
    expect(Date.now() - started).toBeLessThan(15_000);
  });

  it('reports an invalid configuration as one finding', async () => {
    const findings = await checkSnapshotDestination(s3.config({ provA_s3_enable_kms: true, provA_s3_server_side_encryption: true }));
    expect(findings).toEqual([
      {
        ok: false,
        subject: 'snapshot destination (provA-s3)',
        message: 'invalid destination: provA_s3_server_side_encryption cannot be combined with provA_s3_enable_kms',
      },
    ]);
  });
});

describe('checkSnapshotDestination: provB-blob (azurite)', () => {
  it('passes for a writable container', async () => {
    const findings = await checkSnapshotDestination(az.config());
    expect(failing(findings)).toEqual([]);
    expect(findings[0]!.subject).toBe(`${az.endpoint}/snapshots/snapshots/`);
  });

  it('fails for a wrong account key and for a missing container', async () => {
    const wrongKey = await checkSnapshotDestination(az.config({ provB_account_key: Buffer.from('k'.repeat(64)).toString('base64') }));
    expect(failing(wrongKey)[0]!.message).toMatch(/^not writable: .*HTTP 403/);
    const noContainer = await checkSnapshotDestination(az.config({ provB_container_name: 'absent' }));
    expect(failing(noContainer)[0]!.message).toMatch(/ContainerNotFound|does not exist/);
  });
});

describe('checkSnapshotDestination: provC-gcs (fake)', () => {
  const config = (over = {}) => ({ storage_type: 'provC-gcs', path_prefix: 'snaps/', provC_gcs_bucket: 'snapshots', provC_endpoint: gcs.endpoint, ...over });

  it('passes for a writable bucket and leaves no probe', async () => {
    const findings = await checkSnapshotDestination(config());
    expect(failing(findings)).toEqual([]);
    expect(gcs.objectNames('snapshots')).toEqual([]);
  });

  it('fails when the bucket refuses writes', async () => {
    gcs.failWrites = true;
    try {
      const findings = await checkSnapshotDestination(config());
      expect(failing(findings)).toHaveLength(1);
      expect(findings[0]!.message).toMatch(/^not writable: .*forbidden/);
    } finally {
      gcs.failWrites = false;
    }
  });

  it('fails when the destination wants credentials it does not get', async () => {
    const guarded = await startFakeGcs({ buckets: ['snapshots'], bearerToken: 'only-this' });
    try {
      const findings = await checkSnapshotDestination(config({ provC_endpoint: guarded.endpoint }));
      expect(failing(findings)[0]!.message).toMatch(/HTTP 401|Anonymous caller/);
    } finally {
      await guarded.stop();
    }
  });
});
