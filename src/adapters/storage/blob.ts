/**
 * `provB-blob` destinations through @azure/storage-blob. Object names are blob names in the
 * container. Authentication is the account name and shared key (the spec lets only provA-s3
 * and provC-gcs fall back to the SDK's own credential discovery).
 */
import type { ContainerClient } from '@azure/storage-blob';
import { displayEndpoint, endpointUrl, secretValuesOf, text } from './config.js';
import { invalidConfig, scrubSecrets, toStorageError } from './errors.js';
import { onFirstUse } from './on-first-use.js';
import type { ObjectInfo, ObjectStore, OpenOptions, SnapshotStorageConfig } from './types.js';

/** Storage DNS suffixes of the provider's clouds, by provB_blob_environment (case-insensitive). */
const ENVIRONMENT_SUFFIXES: Record<string, string> = {
  provbpubliccloud: 'core.windows.net',
  azurepubliccloud: 'core.windows.net',
  provbusgovernmentcloud: 'core.usgovcloudapi.net',
  azureusgovernmentcloud: 'core.usgovcloudapi.net',
  provbchinacloud: 'core.chinacloudapi.cn',
  azurechinacloud: 'core.chinacloudapi.cn',
  provbgermancloud: 'core.cloudapi.de',
  azuregermancloud: 'core.cloudapi.de',
};

export class BlobStore implements ObjectStore {
  /** The container's client, the SDK loaded and the client built on first use (see on-first-use.ts). */
  private readonly container: () => Promise<ContainerClient>;
  private readonly secrets: string[];
  private readonly accountUrl: string;
  private readonly containerName: string;
  private readonly pathPrefix: string;

  constructor(config: SnapshotStorageConfig, options: OpenOptions = {}) {
    const container = text(config.provB_container_name);
    const account = text(config.provB_account_name);
    const key = config.provB_account_key;
    if (!container) throw invalidConfig('provB-blob needs provB_container_name');
    if (!account || !key) throw invalidConfig('provB-blob needs provB_account_name and provB_account_key');
    this.secrets = secretValuesOf(config);
    this.containerName = container;
    this.pathPrefix = config.path_prefix;
    this.accountUrl = accountUrlOf(config, account);
    // What the SDK's credential refuses, refused here, when the store is opened.
    if (typeof key !== 'string') throw invalidConfig('provB_account_key is not a valid account key');
    this.container = onFirstUse(async () => {
      const sdk = await import('@azure/storage-blob');
      let credential: InstanceType<typeof sdk.StorageSharedKeyCredential>;
      try {
        credential = new sdk.StorageSharedKeyCredential(account, key);
      } catch {
        // The SDK's own message could quote the key.
        throw invalidConfig('provB_account_key is not a valid account key');
      }
      const service = new sdk.BlobServiceClient(this.accountUrl, credential, {
        retryOptions: {
          ...(options.attempts ? { maxTries: options.attempts } : {}),
          ...(options.timeoutMs ? { tryTimeoutInMs: options.timeoutMs } : {}),
        },
      });
      return service.getContainerClient(container);
    });
  }

  async put(name: string, data: Buffer): Promise<void> {
    try {
      // A block blob becomes visible only when its block list commits: never half-written.
      await (await this.container()).getBlockBlobClient(name).uploadData(data);
    } catch (err) {
      throw toStorageError(err, `write ${this.urlOf(name)}`, this.secrets);
    }
  }

  async list(prefix: string): Promise<ObjectInfo[]> {
    const found: ObjectInfo[] = [];
    try {
      for await (const b of (await this.container()).listBlobsFlat({ prefix })) {
        found.push({ name: b.name, size: b.properties.contentLength ?? 0, modified: b.properties.lastModified });
      }
    } catch (err) {
      throw toStorageError(err, `list ${this.urlOf(prefix)}`, this.secrets);
    }
    return found;
  }

  async get(name: string): Promise<Buffer> {
    try {
      return await (await this.container()).getBlobClient(name).downloadToBuffer();
    } catch (err) {
      throw toStorageError(err, `read ${this.urlOf(name)}`, this.secrets);
    }
  }

  async remove(name: string): Promise<void> {
    try {
      await (await this.container()).getBlobClient(name).deleteIfExists();
    } catch (err) {
      throw toStorageError(err, `delete ${this.urlOf(name)}`, this.secrets);
    }
  }

  describe(): string {
    return this.urlOf(this.pathPrefix);
  }

  urlOf(name: string): string {
    // Scrubbed too: nothing stops a bucket name from containing a secret's text.
    return scrubSecrets(`${displayEndpoint(this.accountUrl)}/${this.containerName}/${name}`, this.secrets);
  }
}

/** provB_endpoint as given (e.g. azurite's `http://127.0.0.1:PORT/devstoreaccount1`), else the cloud's. */
function accountUrlOf(config: SnapshotStorageConfig, account: string): string {
  const endpoint = text(config.provB_endpoint);
  if (endpoint) return endpointUrl(endpoint, false);
  const env = text(config.provB_blob_environment)?.toLowerCase() ?? 'provbpubliccloud';
  const suffix = ENVIRONMENT_SUFFIXES[env];
  if (!suffix) {
    throw invalidConfig(
      `unknown provB_blob_environment ${JSON.stringify(config.provB_blob_environment)} (expected PROVBPUBLICCLOUD, PROVBUSGOVERNMENTCLOUD, PROVBCHINACLOUD or PROVBGERMANCLOUD)`,
    );
  }
  return `https://${account}.blob.${suffix}`;
}
