/**
 * A private s3rver (npm, node_modules/.bin) for tests: its own temp dir and a free loopback
 * port, one bucket created. Stopped by PID. s3rver checks the access key id (unknown →
 * InvalidAccessKeyId) but not SigV4 signatures, so a wrong secret key is accepted.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { CreateBucketCommand, S3Client } from '@aws-sdk/client-s3';
import type { SnapshotStorageConfig } from '../../src/adapters/storage/index.js';

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
  stop(): Promise<void>;
}

export async function startS3rver(opts: { bucket?: string } = {}): Promise<S3rver> {
  const bucket = opts.bucket ?? 'snapshots';
  const dir = await mkdtemp(join(tmpdir(), 'lockstep-s3rver-'));
  let child: ChildProcess | undefined;
  try {
    const started = await launch(dir);
    child = started.child;
    const endpoint = `http://127.0.0.1:${started.port}`;
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
    const pid = child.pid!;
    const running = child;
    return {
      endpoint,
      port: started.port,
      pid,
      dir,
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
      stop: async () => {
        await stopByPid(running);
        await rm(dir, { recursive: true, force: true });
      },
    };
  } catch (err) {
    if (child) await stopByPid(child);
    await rm(dir, { recursive: true, force: true });
    throw err;
  }
}

/** Starts s3rver on a fresh port; retries when the port was taken between probe and bind. */
async function launch(dir: string): Promise<{ child: ChildProcess; port: number }> {
  let lastError: unknown;
  for (let attempt = 0; attempt < 4; attempt++) {
    const port = await freePort();
    const child = spawn(BIN, ['-d', dir, '-a', '127.0.0.1', '-p', String(port), '--silent'], {
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    let stderr = '';
    child.stderr!.on('data', (d: Buffer) => (stderr += d.toString()));
    guardExit(child);
    try {
      await waitListening(`http://127.0.0.1:${port}/`, child);
      return { child, port };
    } catch (err) {
      lastError = new Error(`s3rver did not start: ${(err as Error).message}\n${stderr}`);
      await stopByPid(child);
    }
  }
  throw lastError;
}

/** Ready once any HTTP answer comes back. */
async function waitListening(url: string, child: ChildProcess): Promise<void> {
  const deadline = Date.now() + 15_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null || child.signalCode !== null) throw new Error(`exited (${child.exitCode ?? child.signalCode})`);
    try {
      await fetch(url, { signal: AbortSignal.timeout(1000) });
      return;
    } catch {
      await new Promise((r) => setTimeout(r, 50));
    }
  }
  throw new Error('timed out waiting for s3rver');
}

/** Best effort: never leave a server behind if a test file forgets stop(). */
function guardExit(child: ChildProcess): void {
  const onExit = () => {
    try {
      if (child.pid) process.kill(child.pid, 'SIGKILL');
    } catch {
      // already gone
    }
  };
  process.once('exit', onExit);
  child.once('exit', () => process.removeListener('exit', onExit));
}

async function stopByPid(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null || !child.pid) return;
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  process.kill(child.pid, 'SIGTERM');
  const timer = setTimeout(() => child.pid && process.kill(child.pid, 'SIGKILL'), 3000);
  await exited;
  clearTimeout(timer);
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.once('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address() as { port: number };
      srv.close(() => resolve(port));
    });
  });
}
