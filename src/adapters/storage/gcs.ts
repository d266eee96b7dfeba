/**
 * `provC-gcs` destinations through @google-cloud/storage. Object names are keys in the bucket.
 *
 * Authentication: provC_service_account_key (a credentials JSON) when given, else the SDK's own
 * discovery (GOOGLE_APPLICATION_CREDENTIALS, gcloud files, metadata server). Note that the SDK
 * sends no credentials at all to a custom endpoint (provC_endpoint) unless told to, and telling
 * it to would send a token request to Google's real token endpoint; for non-native
 * implementations (emulators) requests therefore go unauthenticated.
 */
import type { Bucket, StorageOptions } from '@google-cloud/storage';
import { displayEndpoint, endpointUrl, flag, secretValuesOf, text } from './config.js';
import { invalidConfig, scrubSecrets, toStorageError } from './errors.js';
import { onFirstUse } from './on-first-use.js';
import type { ObjectInfo, ObjectStore, OpenOptions, SnapshotStorageConfig } from './types.js';

/** Above this size uploads are resumable (retried chunk by chunk); below, one multipart request. */
export const GCS_RESUMABLE_THRESHOLD = 8 * 1024 * 1024;

export class GcsStore implements ObjectStore {
  /** The bucket's handle, the SDK loaded and the client built on first use (see on-first-use.ts). */
  private readonly bucket: () => Promise<Bucket>;
  private readonly bucketName: string;
  private readonly secrets: string[];
  private readonly where: string;

  constructor(config: SnapshotStorageConfig, options: OpenOptions = {}) {
    const bucket = text(config.provC_gcs_bucket);
    if (!bucket) throw invalidConfig('provC-gcs needs provC_gcs_bucket');
    this.bucketName = bucket;
    this.secrets = secretValuesOf(config);
    const endpoint = text(config.provC_endpoint);
    const apiEndpoint = endpoint ? endpointUrl(endpoint, flag(config.provC_disable_tls)) : undefined;
    this.where = `gs://${bucket}/${config.path_prefix}` + (apiEndpoint ? ` (endpoint ${displayEndpoint(apiEndpoint)})` : '');
    const credentials = parseKey(config.provC_service_account_key);
    this.bucket = onFirstUse(async () => {
      const { IdempotencyStrategy, Storage } = await import('@google-cloud/storage');
      const storageOptions: StorageOptions = {
        ...(apiEndpoint ? { apiEndpoint } : {}),
        ...(credentials ? { credentials, projectId: credentials.project_id } : {}),
        ...(options.timeoutMs ? { timeout: options.timeoutMs } : {}),
        retryOptions: {
          // By default the SDK retries no upload without a generation precondition. A snapshot
          // name is unique and a repeated upload writes the same bytes: always safe to retry.
          idempotencyStrategy: IdempotencyStrategy.RetryAlways,
          // The SDK treats maxRetries 0 as "default"; autoRetry false is how to say "no retries".
          ...(options.attempts ? (options.attempts > 1 ? { maxRetries: options.attempts - 1 } : { autoRetry: false }) : {}),
        },
      };
      return new Storage(storageOptions).bucket(bucket);
    });
  }

  async put(name: string, data: Buffer): Promise<void> {
    try {
      // The SDK checks the crc32c the service reports against the data it sent.
      await (await this.bucket()).file(name).save(data, {
        resumable: data.length > GCS_RESUMABLE_THRESHOLD,
        validation: 'crc32c',
        contentType: 'application/octet-stream',
      });
    } catch (err) {
      throw toStorageError(err, `write ${this.urlOf(name)}`, this.secrets);
    }
  }

  async list(prefix: string): Promise<ObjectInfo[]> {
    try {
      const [files] = await (await this.bucket()).getFiles({ prefix, autoPaginate: true });
      return files.map((f) => ({
        name: f.name,
        size: Number(f.metadata.size ?? 0),
        modified: new Date(f.metadata.updated ?? f.metadata.timeCreated ?? 0),
      }));
    } catch (err) {
      throw toStorageError(err, `list ${this.urlOf(prefix)}`, this.secrets);
    }
  }

  async get(name: string): Promise<Buffer> {
    try {
      const [data] = await (await this.bucket()).file(name).download();
      return data;
    } catch (err) {
      throw toStorageError(err, `read ${this.urlOf(name)}`, this.secrets);
    }
  }

  async remove(name: string): Promise<void> {
    try {
      await (await this.bucket()).file(name).delete({ ignoreNotFound: true });
    } catch (err) {
      throw toStorageError(err, `delete ${this.urlOf(name)}`, this.secrets);
    }
  }

  describe(): string {
    return scrubSecrets(this.where, this.secrets);
  }

  urlOf(name: string): string {
    // Scrubbed too: nothing stops a bucket name from containing a secret's text.
    return scrubSecrets(`gs://${this.bucketName}/${name}`, this.secrets);
  }
}

interface CredentialsJson {
  type?: string;
  project_id?: string;
  client_email?: string;
  private_key?: string;
  [field: string]: unknown;
}

/** The key JSON, checked for shape. Messages never quote it (JSON.parse's would). */
function parseKey(raw: string | undefined): CredentialsJson | undefined {
  if (raw === undefined || raw.trim() === '') return undefined;
  let parsed: unknown;
  try {
    parsed = JSON.parse(raw);
  } catch {
    throw invalidConfig('provC_service_account_key is not valid JSON');
  }
  if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed)) {
    throw invalidConfig('provC_service_account_key is not a JSON object');
  }
  const key = parsed as CredentialsJson;
  if ((key.type ?? 'service_account') === 'service_account' && (typeof key.client_email !== 'string' || typeof key.private_key !== 'string')) {
    throw invalidConfig('provC_service_account_key lacks client_email or private_key');
  }
  return key;
}
