/**
 * A private azurite blob service (npm, node_modules/.bin/azurite-blob) for tests: its own temp
 * dir and a free loopback port, one container created, the published development account.
 * Stopped by PID. Azurite checks SharedKey signatures, so a wrong account key is refused (403).
 */
import { fileURLToPath } from 'node:url';
import { BlobServiceClient, StorageSharedKeyCredential } from '@azure/storage-blob';
import type { SnapshotStorageConfig } from '../../src/adapters/storage/index.js';
import { answersHttp, launchOnFreePorts, startServerInTempDir, type LaunchedServer } from './process.js';

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
  stop: () => Promise<void>;
}

export async function startAzurite(opts: { container?: string } = {}): Promise<Azurite> {
  const container = opts.container ?? 'snapshots';
  return startServerInTempDir('azurite', launch, async (server) => {
    const [port] = server.ports as [number];
    const endpoint = `http://127.0.0.1:${port}/${AZURITE_ACCOUNT}`;
    const serviceClient = () =>
      new BlobServiceClient(endpoint, new StorageSharedKeyCredential(AZURITE_ACCOUNT, AZURITE_KEY), {
        retryOptions: { maxTries: 1 },
      });
    const createContainer = async (name: string): Promise<void> => {
      await serviceClient().getContainerClient(name).createIfNotExists();
    };
    await createContainer(container);
    return {
      endpoint,
      port,
      pid: server.pid,
      dir: server.dir,
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
      stop: server.stop,
    };
  });
}

/** Starts azurite-blob on a fresh port. */
function launch(dir: string): Promise<LaunchedServer> {
  return launchOnFreePorts({
    name: 'azurite',
    ports: 1,
    command: BIN,
    args: ([port]) => ['--blobHost', '127.0.0.1', '--blobPort', String(port), '--location', dir, '--silent',
      // Without it every call of a newer SDK fails with 400 InvalidHeaderValue.
      '--skipApiVersionCheck', '--disableTelemetry'],
    // Ready once any HTTP answer comes back (an unauthenticated list answers 403).
    probe: ([port]) => answersHttp(`http://127.0.0.1:${port}/${AZURITE_ACCOUNT}?comp=list`),
    timeoutMs: 20_000,
  });
}
