/**
 * `provA-s3` destinations through @aws-sdk/client-s3. Object names are keys in the bucket.
 */
import type { S3Client, S3ClientConfig, ServerSideEncryption } from '@aws-sdk/client-s3';
import { displayEndpoint, endpointUrl, flag, secretValuesOf, text } from './config.js';
import { invalidConfig, scrubSecrets, toStorageError } from './errors.js';
import { onFirstUse } from './on-first-use.js';
import type { ObjectInfo, ObjectStore, OpenOptions, SnapshotStorageConfig } from './types.js';

type S3Sdk = typeof import('@aws-sdk/client-s3');

interface Encryption {
  ServerSideEncryption?: ServerSideEncryption;
  SSEKMSKeyId?: string;
}

export class S3Store implements ObjectStore {
  /** The SDK and a client, loaded and built on first use (see on-first-use.ts). */
  private readonly connection: () => Promise<{ sdk: S3Sdk; client: S3Client }>;
  private readonly bucket: string;
  private readonly encryption: Encryption;
  private readonly secrets: string[];
  private readonly where: string;

  constructor(config: SnapshotStorageConfig, options: OpenOptions = {}) {
    const bucket = text(config.provA_s3_bucket);
    const region = text(config.provA_s3_region);
    if (!bucket) throw invalidConfig('provA-s3 needs provA_s3_bucket');
    if (!region) throw invalidConfig('provA-s3 needs provA_s3_region');
    this.bucket = bucket;
    this.encryption = encryptionOf(config);
    this.secrets = secretValuesOf(config);
    const endpoint = text(config.provA_s3_endpoint);
    const url = endpoint ? endpointUrl(endpoint, flag(config.provA_s3_disable_tls)) : undefined;
    this.where = `s3://${bucket}/${config.path_prefix}` + (url ? ` (endpoint ${displayEndpoint(url)})` : ` (region ${region})`);
    // The SDK nags about Node < 22 on stderr; lockstep's output is no place for it.
    process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= 'true';
    const settings = clientConfig(config, region, url, options);
    this.connection = onFirstUse(() => import('@aws-sdk/client-s3').then((sdk) => ({ sdk, client: new sdk.S3Client(settings) })));
  }

  async put(name: string, data: Buffer): Promise<void> {
    try {
      const { sdk, client } = await this.connection();
      await client.send(
        new sdk.PutObjectCommand({ Bucket: this.bucket, Key: name, Body: data, ContentLength: data.length, ...this.encryption }),
      );
    } catch (err) {
      throw toStorageError(err, `write s3://${this.bucket}/${name}`, this.secrets);
    }
  }

  async list(prefix: string): Promise<ObjectInfo[]> {
    const found: ObjectInfo[] = [];
    let token: string | undefined;
    try {
      const { sdk, client } = await this.connection();
      do {
        const page = await client.send(
          new sdk.ListObjectsV2Command({ Bucket: this.bucket, Prefix: prefix, ContinuationToken: token }),
        );
        for (const o of page.Contents ?? []) {
          if (o.Key === undefined) continue;
          found.push({ name: o.Key, size: o.Size ?? 0, modified: o.LastModified ?? new Date(0) });
        }
        token = page.IsTruncated ? page.NextContinuationToken : undefined;
      } while (token);
    } catch (err) {
      throw toStorageError(err, `list s3://${this.bucket}/${prefix}`, this.secrets);
    }
    return found;
  }

  async get(name: string): Promise<Buffer> {
    try {
      const { sdk, client } = await this.connection();
      const res = await client.send(new sdk.GetObjectCommand({ Bucket: this.bucket, Key: name }));
      return Buffer.from(await res.Body!.transformToByteArray());
    } catch (err) {
      throw toStorageError(err, `read s3://${this.bucket}/${name}`, this.secrets);
    }
  }

  async remove(name: string): Promise<void> {
    try {
      // S3 answers a delete of a missing key with success, which is the contract.
      const { sdk, client } = await this.connection();
      await client.send(new sdk.DeleteObjectCommand({ Bucket: this.bucket, Key: name }));
    } catch (err) {
      throw toStorageError(err, `delete s3://${this.bucket}/${name}`, this.secrets);
    }
  }

  describe(): string {
    return scrubSecrets(this.where, this.secrets);
  }

  urlOf(name: string): string {
    // Scrubbed too: nothing stops a bucket name from containing a secret's text.
    return scrubSecrets(`s3://${this.bucket}/${name}`, this.secrets);
  }
}

function clientConfig(config: SnapshotStorageConfig, region: string, url: string | undefined, options: OpenOptions): S3ClientConfig {
  const accessKeyId = text(config.provA_access_key_id);
  const secretAccessKey = config.provA_secret_access_key || undefined;
  if (Boolean(accessKeyId) !== Boolean(secretAccessKey)) {
    throw invalidConfig('provA_access_key_id and provA_secret_access_key must be given together');
  }
  return {
    region,
    ...(url ? { endpoint: url } : {}),
    forcePathStyle: flag(config.provA_s3_force_path_style),
    // Without explicit keys the SDK's default chain applies (environment, profile, instance role).
    ...(accessKeyId && secretAccessKey
      ? { credentials: { accessKeyId, secretAccessKey, sessionToken: config.provA_session_token || undefined } }
      : {}),
    // Newer SDKs add flexible checksums that some S3 implementations (s3rver) store as part of
    // the body; only send them where the API requires them.
    requestChecksumCalculation: 'WHEN_REQUIRED',
    responseChecksumValidation: 'WHEN_REQUIRED',
    ...(options.attempts ? { maxAttempts: options.attempts } : {}),
    ...(options.timeoutMs ? { requestHandler: { connectionTimeout: options.timeoutMs, requestTimeout: options.timeoutMs } } : {}),
  };
}

/** AES256 (SSE-S3) or aws:kms with the configured key; the spec forbids asking for both. */
function encryptionOf(config: SnapshotStorageConfig): Encryption {
  const sse = flag(config.provA_s3_server_side_encryption);
  const kms = flag(config.provA_s3_enable_kms);
  if (sse && kms) throw invalidConfig('provA_s3_server_side_encryption cannot be combined with provA_s3_enable_kms');
  if (sse) return { ServerSideEncryption: 'AES256' };
  if (kms) {
    const key = text(config.provA_s3_kms_key);
    return key ? { ServerSideEncryption: 'aws:kms', SSEKMSKeyId: key } : { ServerSideEncryption: 'aws:kms' };
  }
  return {};
}
