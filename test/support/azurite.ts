/**
 * A private azurite blob service (npm, node_modules/.bin/azurite-blob) for tests: its own temp
 * dir and a free loopback port, one container created, the published development account.
 * Stopped by PID. Azurite checks SharedKey signatures, so a wrong account key is refused (403).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { BlobServiceClient, StorageSharedKeyCredential } from '@azure/storage-blob';
import type { SnapshotStorageConfig } from '../../src/adapters/storage/index.js';

const BIN = fileURLToPath(new URL('../../node_modules/.bin/azurite-blob', import.meta.url));

/** The development account and key published in the provider's documentation. */
export const AZURITE_ACCOUNT = 'devstoreaccount1';
export const AZURITE_KEY = 'Eby8vdM02xNOcqFlqUwJPLlmEtlCDXJ1OUzFT50uSRZ6IFsuFq2UVErCz4I6tq/K1SZFPTOtr/KBHBeksoGMGw==';

export interface Azurite {
  /** The account URL, `http://127.0.0.1:PORT/devstoreaccount1`. */
  endpoint: string;
  port: number;
  pid: number;
  dir: string;
  /** The container created at start. */
  container: string;
  accountName: string;
  accountKey: string;
  serviceClient(): BlobServiceClient;
  createContainer(name: string): Promise<void>;
  /** A provB-blob snapshot configuration pointing at this service; overrides win. */
  config(overrides?: Partial<SnapshotStorageConfig>): SnapshotStorageConfig;
  stop(): Promise<void>;
}

export async function startAzurite(opts: { container?: string } = {}): Promise<Azurite> {
  const container = opts.container ?? 'snapshots';
  const dir = await mkdtemp(join(tmpdir(), 'lockstep-azurite-'));
  let child: ChildProcess | undefined;
  try {
    const started = await launch(dir);
    child = started.child;
    const endpoint = `http://127.0.0.1:${started.port}/${AZURITE_ACCOUNT}`;
    const serviceClient = () =>
      new BlobServiceClient(endpoint, new StorageSharedKeyCredential(AZURITE_ACCOUNT, AZURITE_KEY), {
        retryOptions: { maxTries: 1 },
      });
    const createContainer = async (name: string): Promise<void> => {
      await serviceClient().getContainerClient(name).createIfNotExists();
    };
    await createContainer(container);
    const running = child;
    return {
      endpoint,
      port: started.port,
      pid: child.pid!,
      dir,
      container,
      accountName: AZURITE_ACCOUNT,
      accountKey: AZURITE_KEY,
      serviceClient,
      createContainer,
      config: (overrides = {}) => ({
        storage_type: 'provB-blob',
        path_prefix: 'snapshots/',
        file_prefix: 'vault-snapshot',
        provB_container_name: container,
        provB_account_name: AZURITE_ACCOUNT,
        provB_account_key: AZURITE_KEY,
        provB_endpoint: endpoint,
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

/** Starts azurite-blob on a fresh port; retries when the port was taken between probe and bind. */
async function launch(dir: string): Promise<{ child: ChildProcess; port: number }> {
  let lastError: unknown;
  for (let attempt = 0; attempt < 4; attempt++) {
    const port = await freePort();
    const args = ['--blobHost', '127.0.0.1', '--blobPort', String(port), '--location', dir, '--silent',
      // Without it every call of a newer SDK fails with 400 InvalidHeaderValue.
      '--skipApiVersionCheck', '--disableTelemetry'];
    const child = spawn(BIN, args, { stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    child.stderr!.on('data', (d: Buffer) => (stderr += d.toString()));
    guardExit(child);
    try {
      await waitListening(`http://127.0.0.1:${port}/${AZURITE_ACCOUNT}?comp=list`, child);
      return { child, port };
    } catch (err) {
      lastError = new Error(`azurite did not start: ${(err as Error).message}\n${stderr}`);
      await stopByPid(child);
    }
  }
  throw lastError;
}

/** Ready once any HTTP answer comes back (an unauthenticated list answers 403). */
async function waitListening(url: string, child: ChildProcess): Promise<void> {
  const deadline = Date.now() + 20_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null || child.signalCode !== null) throw new Error(`exited (${child.exitCode ?? child.signalCode})`);
    try {
      await fetch(url, { signal: AbortSignal.timeout(1000) });
      return;
    } catch {
      await new Promise((r) => setTimeout(r, 50));
    }
  }
  throw new Error('timed out waiting for azurite');
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
