/** The provAkms backend through @aws-sdk/client-kms. */
import { randomBytes, createPublicKey } from 'node:crypto';
import {
  CreateAliasCommand, CreateKeyCommand, DescribeKeyCommand, GetPublicKeyCommand, KMSClient, SignCommand,
  type KeyMetadata, type SigningAlgorithmSpec,
} from '@aws-sdk/client-kms';
import { KeyBackendError } from '../errors.js';
import { DEFAULT_HASH, digest } from '../hash.js';
import { assertMayGenerate, assertMaySign } from '../policy.js';
import { runProbe, type Probe } from '../probe.js';
import type { AwsKmsKeyConfig, BackendFinding, KeyBackend, KeyBackendOptions, TestSignOptions } from '../types.js';
import { assertSignatureVerifies } from '../verify.js';
import { awsError, isAwsError } from './errors.js';
import { aliasName, isAlias, readAwsSettings, type AwsSettings } from './settings.js';
import { expectedKeySpec, signingAlgorithm } from './specs.js';

export class AwsKmsBackend implements KeyBackend {
  readonly type = 'provAkms' as const;

  constructor(
    private readonly config: AwsKmsKeyConfig,
    private readonly options: KeyBackendOptions = {},
  ) {}

  private settings(): AwsSettings {
    return readAwsSettings(this.config, this.options.env ?? process.env);
  }

  private client(s: AwsSettings): KMSClient {
    return new KMSClient({
      region: s.region,
      endpoint: s.endpoint,
      credentials: s.credentials,
      maxAttempts: this.options.aws?.maxAttempts ?? 2,
    });
  }

  async testSign(opts: TestSignOptions = {}): Promise<void> {
    const s = this.settings();
    assertMaySign('provAkms', s.policy);
    const hash = opts.hashAlgorithm ?? DEFAULT_HASH;
    const algorithm = signingAlgorithm(s, hash, opts.usePss ?? false);
    const client = this.client(s);
    try {
      const meta = (await describe(client, s.kmsKey)) ?? (await generate(client, s));
      assertKeyUsable(s, meta, algorithm);
      const data = opts.data ?? randomBytes(64);
      const keyId = meta.Arn ?? meta.KeyId!;
      const signed = await client
        .send(new SignCommand({ KeyId: keyId, Message: digest(hash, data), MessageType: 'DIGEST', SigningAlgorithm: algorithm }))
        .catch((err: unknown) => { throw awsError(err, `Sign with ${s.kmsKey}`); });
      const pub = await client
        .send(new GetPublicKeyCommand({ KeyId: keyId }))
        .catch((err: unknown) => { throw awsError(err, `GetPublicKey of ${s.kmsKey}`); });
      const publicKey = createPublicKey({ key: Buffer.from(pub.PublicKey!), format: 'der', type: 'spki' });
      assertSignatureVerifies('provAkms', `${algorithm} signature by ${s.kmsKey}`, publicKey, {
        data,
        hash,
        scheme: s.keyType === 'ECDSA' ? { kind: 'ecdsa', encoding: 'der' } : algorithm.startsWith('RSASSA_PSS') ? { kind: 'rsa-pss' } : { kind: 'rsa-pkcs1' },
        signature: Buffer.from(signed.Signature!),
      });
    } finally {
      client.destroy();
    }
  }

  inspect(): Promise<BackendFinding[]> {
    return runProbe((p) => this.probe(p));
  }

  private async probe(p: Probe): Promise<void> {
    const s = await p.step('configuration', () => this.settings(), (v) => `region ${v.region}${v.endpoint ? `, endpoint ${v.endpoint}` : ''}`);
    const client = this.client(s);
    try {
      const subject = `key ${s.kmsKey}`;
      const meta = await p.attempt(subject, () => describe(client, s.kmsKey));
      if (!meta) {
        if (!s.policy.allowGenerate || !isAlias(s.kmsKey)) p.fail(subject, 'no such key or alias, and allow_generate_key is false');
        p.ok(subject, 'not found; test/sign will generate a key and create the alias (allow_generate_key is true)');
        return;
      }
      p.ok(subject, `found: ${meta.Arn ?? meta.KeyId}`);
      await p.step('key state', () => assertEnabled(s, meta), () => 'Enabled');
      await p.step('key usage', () => assertSignVerify(s, meta), () => 'SIGN_VERIFY');
      await p.step('key spec', () => assertSpec(s, meta), () => `${meta.KeySpec} matches key_type/${s.keyType === 'RSA' ? 'key_bits' : 'curve'}`);
    } finally {
      client.destroy();
    }
  }
}

/** The key's metadata, or undefined when the key or alias does not exist. */
async function describe(client: KMSClient, kmsKey: string): Promise<KeyMetadata | undefined> {
  try {
    return (await client.send(new DescribeKeyCommand({ KeyId: kmsKey }))).KeyMetadata;
  } catch (err) {
    if (isAwsError(err, 'NotFoundException')) return undefined;
    throw awsError(err, `DescribeKey ${kmsKey}`);
  }
}

/** CreateKey (SIGN_VERIFY, the configured spec) and CreateAlias; kms_key is an alias here. */
async function generate(client: KMSClient, s: AwsSettings): Promise<KeyMetadata> {
  assertMayGenerate('provAkms', s.policy, `key ${s.kmsKey}`);
  const created = await client
    .send(new CreateKeyCommand({ KeyUsage: 'SIGN_VERIFY', KeySpec: expectedKeySpec(s), Description: `lockstep managed key ${s.kmsKey}` }))
    .catch((err: unknown) => { throw awsError(err, `CreateKey for ${s.kmsKey}`); });
  const meta = created.KeyMetadata!;
  try {
    await client.send(new CreateAliasCommand({ AliasName: aliasName(s.kmsKey), TargetKeyId: meta.KeyId }));
  } catch (err) {
    // Another writer created the alias meanwhile: use its key, never re-point the alias.
    if (!isAwsError(err, 'AlreadyExistsException')) throw awsError(err, `CreateAlias ${s.kmsKey}`);
    const existing = await describe(client, s.kmsKey);
    if (existing) return existing;
    throw awsError(err, `CreateAlias ${s.kmsKey}`);
  }
  return meta;
}

function assertEnabled(s: AwsSettings, meta: KeyMetadata): void {
  if (meta.KeyState !== 'Enabled' || meta.Enabled === false) {
    throw new KeyBackendError('disabled', 'provAkms', `key ${s.kmsKey} is ${meta.KeyState ?? 'not enabled'}`);
  }
}

function assertSignVerify(s: AwsSettings, meta: KeyMetadata): void {
  if (meta.KeyUsage !== 'SIGN_VERIFY') {
    throw new KeyBackendError('usage', 'provAkms', `key ${s.kmsKey} has usage ${meta.KeyUsage}, not SIGN_VERIFY`);
  }
}

function assertSpec(s: AwsSettings, meta: KeyMetadata): void {
  const expected = expectedKeySpec(s);
  if (meta.KeySpec !== expected) {
    throw new KeyBackendError('spec', 'provAkms', `key ${s.kmsKey} has key spec ${meta.KeySpec}, but the configuration asks for ${expected}`);
  }
}

function assertKeyUsable(s: AwsSettings, meta: KeyMetadata, algorithm: SigningAlgorithmSpec): void {
  assertEnabled(s, meta);
  assertSignVerify(s, meta);
  assertSpec(s, meta);
  if (meta.SigningAlgorithms && !meta.SigningAlgorithms.includes(algorithm)) {
    throw new KeyBackendError('unsupported', 'provAkms', `key ${s.kmsKey} (${meta.KeySpec}) does not sign with ${algorithm}`);
  }
}
