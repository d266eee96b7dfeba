/** The provCckms backend through @google-cloud/kms. */
import { createPublicKey, randomBytes } from 'node:crypto';
import { protos, type KeyManagementServiceClient } from '@google-cloud/kms';
import { KeyBackendError } from '../errors.js';
import { digest } from '../hash.js';
import { assertMayGenerate, assertMaySign } from '../policy.js';
import { runProbe, type Probe } from '../probe.js';
import type { BackendFinding, GcpKmsKeyConfig, KeyBackend, KeyBackendOptions, TestSignOptions } from '../types.js';
import { assertSignatureVerifies } from '../verify.js';
import { gcpClient } from './client.js';
import { gcpError, isAlreadyExists, isNotFound } from './errors.js';
import { readGcpSettings, type GcpSettings } from './settings.js';

const v1 = protos.google.cloud.kms.v1;
type CryptoKey = protos.google.cloud.kms.v1.ICryptoKey;
type CryptoKeyVersion = protos.google.cloud.kms.v1.ICryptoKeyVersion;

/** Enum values arrive as names or numbers depending on transport; compare names. */
function enumName(values: Record<string | number, string | number>, v: unknown): string {
  return typeof v === 'number' ? String(values[v]) : typeof v === 'string' ? v : '';
}

export class GcpKmsBackend implements KeyBackend {
  readonly type = 'provCckms' as const;

  constructor(
    private readonly config: GcpKmsKeyConfig,
    private readonly options: KeyBackendOptions = {},
    /** Shared with the guard: the credentials' private key is added once read. */
    private readonly secrets: Set<string> = new Set(),
  ) {}

  private settings(): GcpSettings {
    return readGcpSettings(this.config, this.options.env ?? process.env);
  }

  async testSign(opts: TestSignOptions = {}): Promise<void> {
    const s = this.settings();
    assertMaySign('provCckms', s.policy);
    const alg = s.algorithm;
    // The algorithm fixes hash and padding; only an explicit, different request is refused.
    if (opts.hashAlgorithm !== undefined && opts.hashAlgorithm !== alg.hash) {
      throw new KeyBackendError('unsupported', 'provCckms', `algorithm ${alg.name} signs ${alg.hash} digests, not ${opts.hashAlgorithm}`);
    }
    if (opts.usePss === true && alg.scheme.kind !== 'rsa-pss') {
      throw new KeyBackendError('unsupported', 'provCckms', `algorithm ${alg.name} does not make PSS signatures`);
    }
    const client = await gcpClient(s, this.options, this.secrets);
    try {
      const key = (await getCryptoKey(client, s)) ?? (await generate(client, s));
      assertPurpose(s, key);
      const version = await getVersion(client, s);
      if (!version) throw new KeyBackendError('not_found', 'provCckms', `key version ${s.versionName} not found`);
      assertVersionUsable(s, version);
      const data = opts.data ?? randomBytes(64);
      const [signed] = await client
        .asymmetricSign({ name: s.versionName, digest: { [alg.digestField]: digest(alg.hash, data) } })
        .catch((err: unknown) => { throw gcpError(err, `asymmetricSign with ${s.versionName}`); });
      const [pub] = await client
        .getPublicKey({ name: s.versionName })
        .catch((err: unknown) => { throw gcpError(err, `getPublicKey of ${s.versionName}`); });
      assertSignatureVerifies('provCckms', `${alg.name} signature by ${s.versionName}`, createPublicKey(String(pub.pem)), {
        data,
        hash: alg.hash,
        scheme: alg.scheme,
        signature: Buffer.from(signed.signature as Uint8Array),
      });
    } finally {
      await client.close().catch(() => undefined);
    }
  }

  inspect(): Promise<BackendFinding[]> {
    return runProbe((p) => this.probe(p));
  }

  private async probe(p: Probe): Promise<void> {
    const s = await p.step('configuration', () => this.settings(), (v) => `key version ${v.versionName}`);
    const client = await p.step('credentials', () => gcpClient(s, this.options, this.secrets), () => 'read');
    try {
      const subject = `crypto key ${s.cryptoKeyName}`;
      const key = await p.attempt(subject, () => getCryptoKey(client, s));
      if (!key) {
        if (!s.policy.allowGenerate) p.fail(subject, 'no such key, and allow_generate_key is false');
        p.ok(subject, `not found; test/sign will generate it in key ring ${s.keyRingName} (allow_generate_key is true)`);
        return;
      }
      p.ok(subject, 'found');
      await p.step('key purpose', () => assertPurpose(s, key), () => 'ASYMMETRIC_SIGN');
      const versionSubject = `key version ${s.versionName}`;
      const version = await p.attempt(versionSubject, () => getVersion(client, s));
      if (!version) p.fail(versionSubject, 'no such key version');
      p.ok(versionSubject, 'found');
      await p.step('key version state', () => assertEnabled(s, version), () => 'ENABLED');
      await p.step('key version algorithm', () => assertAlgorithm(s, version), () => `${s.algorithm.name} as configured`);
    } finally {
      await client.close().catch(() => undefined);
    }
  }
}

async function getCryptoKey(client: KeyManagementServiceClient, s: GcpSettings): Promise<CryptoKey | undefined> {
  try {
    return (await client.getCryptoKey({ name: s.cryptoKeyName }))[0];
  } catch (err) {
    if (isNotFound(err)) return undefined;
    throw gcpError(err, `get crypto key ${s.cryptoKeyName}`);
  }
}

async function getVersion(client: KeyManagementServiceClient, s: GcpSettings): Promise<CryptoKeyVersion | undefined> {
  try {
    return (await client.getCryptoKeyVersion({ name: s.versionName }))[0];
  } catch (err) {
    if (isNotFound(err)) return undefined;
    throw gcpError(err, `get key version ${s.versionName}`);
  }
}

/** createCryptoKey with the configured algorithm; its first version is version 1. */
async function generate(client: KeyManagementServiceClient, s: GcpSettings): Promise<CryptoKey> {
  assertMayGenerate('provCckms', s.policy, `crypto key ${s.cryptoKeyName}`);
  try {
    const [key] = await client.createCryptoKey({
      parent: s.keyRingName,
      cryptoKeyId: s.cryptoKeyId,
      cryptoKey: { purpose: 'ASYMMETRIC_SIGN', versionTemplate: { algorithm: s.algorithm.name as 'EC_SIGN_P256_SHA256' } },
    });
    return key;
  } catch (err) {
    if (isAlreadyExists(err)) return (await getCryptoKey(client, s))!;
    if (isNotFound(err)) throw new KeyBackendError('not_found', 'provCckms', `key ring ${s.keyRingName} not found (it must exist before a key is generated)`);
    throw gcpError(err, `create crypto key ${s.cryptoKeyName}`);
  }
}

function assertPurpose(s: GcpSettings, key: CryptoKey): void {
  const purpose = enumName(v1.CryptoKey.CryptoKeyPurpose, key.purpose);
  if (purpose !== 'ASYMMETRIC_SIGN') {
    throw new KeyBackendError('usage', 'provCckms', `crypto key ${s.cryptoKeyName} has purpose ${purpose}, not ASYMMETRIC_SIGN`);
  }
}

function assertEnabled(s: GcpSettings, version: CryptoKeyVersion): void {
  const state = enumName(v1.CryptoKeyVersion.CryptoKeyVersionState, version.state);
  if (state !== 'ENABLED') throw new KeyBackendError('disabled', 'provCckms', `key version ${s.versionName} is ${state}`);
}

function assertAlgorithm(s: GcpSettings, version: CryptoKeyVersion): void {
  const algorithm = enumName(v1.CryptoKeyVersion.CryptoKeyVersionAlgorithm, version.algorithm);
  if (algorithm !== s.algorithm.name) {
    throw new KeyBackendError('spec', 'provCckms', `key version ${s.versionName} has algorithm ${algorithm}, but the configuration asks for ${s.algorithm.name}`);
  }
}

function assertVersionUsable(s: GcpSettings, version: CryptoKeyVersion): void {
  assertEnabled(s, version);
  assertAlgorithm(s, version);
}
