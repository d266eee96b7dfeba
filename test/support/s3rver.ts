/**
 * A private s3rver (npm, node_modules/.bin) for tests: its own temp dir and a free loopback
 * port, one bucket created. Stopped by PID. s3rver checks the access key id (unknown →
 * InvalidAccessKeyId) but not SigV4 signatures, so a wrong secret key is accepted.
 */
import { fileURLToPath } from 'node:url';
import { CreateBucketCommand, S3Client } from '@aws-sdk/client-s3';
import type { SnapshotStorageConfig } from '../../src/adapters/storage/index.js';
import { answersHttp, launchOnFreePorts, startServerInTempDir, type LaunchedServer } from './process.js';

const BIN = fileURLToPath(new URL('../../node_modules/.bin/s3rver', import.meta.url));

export const S3RVER_KEY = 'S3RVER';
export const S3RVER_REGION = 'us-east-1';

export interface S3rver {
  /** `http://127.0.0.1:PORT` */
  endpoint: string;
  port: number;
  pid: number;
  dir: string;
  /** The bucket created at start. */
  bucket: string;
  accessKeyId: string;
  secretAccessKey: string;
  region: string;
  /** An SDK client with the settings s3rver needs. */
  client(): S3Client;
  createBucket(name: string): Promise<void>;
  /** A provA-s3 snapshot configuration pointing at this server; overrides win. */
  config(overrides?: Partial<SnapshotStorageConfig>): SnapshotStorageConfig;
  stop: () => Promise<void>;
}

export async function startS3rver(opts: { bucket?: string } = {}): Promise<S3rver> {
  const bucket = opts.bucket ?? 'snapshots';
  return startServerInTempDir('s3rver', launch, async (server) => {
    const [port] = server.ports as [number];
    const endpoint = `http://127.0.0.1:${port}`;
    const client = (): S3Client => {
      process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= 'true';
      return new S3Client({
        endpoint,
        region: S3RVER_REGION,
        forcePathStyle: true,
        credentials: { accessKeyId: S3RVER_KEY, secretAccessKey: S3RVER_KEY },
        requestChecksumCalculation: 'WHEN_REQUIRED',
        responseChecksumValidation: 'WHEN_REQUIRED',
      });
    };
    const createBucket = async (name: string): Promise<void> => {
      const c = client();
      try {
        await c.send(new CreateBucketCommand({ Bucket: name }));
      } finally {
        c.destroy();
      }
    };
    await createBucket(bucket);
    return {
      endpoint,
      port,
      pid: server.pid,
      dir: server.dir,
      bucket,
      accessKeyId: S3RVER_KEY,
      secretAccessKey: S3RVER_KEY,
      region: S3RVER_REGION,
      client,
      createBucket,
      config: (overrides = {}) => ({
        storage_type: 'provA-s3',
        path_prefix: 'snapshots/',
        file_prefix: 'vault-snapshot',
        provA_s3_bucket: bucket,
        provA_s3_region: S3RVER_REGION,
        provA_access_key_id: S3RVER_KEY,
        provA_secret_access_key: S3RVER_KEY,
        provA_s3_endpoint: endpoint,
        provA_s3_force_path_style: true,
        ...overrides,
      }),
      stop: server.stop,
    };
  });
}

/** Starts s3rver on a fresh port. */
function launch(dir: string): Promise<LaunchedServer> {
  return launchOnFreePorts({
    name: 's3rver',
    ports: 1,
    command: BIN,
    args: ([port]) => ['-d', dir, '-a', '127.0.0.1', '-p', String(port), '--silent'],
    probe: ([port]) => answersHttp(`http://127.0.0.1:${port}/`),
    timeoutMs: 15_000,
  });
}
