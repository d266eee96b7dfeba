/** The provBkeyvault backend through @azure/keyvault-keys and @azure/identity. */
import { createPublicKey, randomBytes } from 'node:crypto';
import type { KeyVaultKey, SignatureAlgorithm } from '@azure/keyvault-keys';
import { KeyBackendError } from '../errors.js';
import { DEFAULT_HASH, digest, type HashAlgorithm } from '../hash.js';
import { assertMayGenerate, assertMaySign } from '../policy.js';
import { runProbe, type Probe } from '../probe.js';
import type { AzureKeyVaultKeyConfig, BackendFinding, KeyBackend, KeyBackendOptions, TestSignOptions } from '../types.js';
import { assertSignatureVerifies } from '../verify.js';
import { azureClients, type AzureClients } from './client.js';
import { azureError, isNotFound } from './errors.js';
import { readAzureSettings, type AzureSettings } from './settings.js';

const SHA2: Partial<Record<HashAlgorithm, string>> = { 'sha2-256': '256', 'sha2-384': '384', 'sha2-512': '512' };

/** RS256/PS256 etc.; Key Vault signs SHA-256/384/512 digests only. */
function signatureAlgorithm(hash: HashAlgorithm, usePss: boolean): SignatureAlgorithm {
  const bits = SHA2[hash];
  if (!bits) throw new KeyBackendError('unsupported', 'provBkeyvault', `hash_algorithm ${hash} is not supported (Key Vault signs sha2-256, sha2-384 and sha2-512 digests)`);
  return `${usePss ? 'PS' : 'RS'}${bits}`;
}

export class AzureKeyVaultBackend implements KeyBackend {
  readonly type = 'provBkeyvault' as const;

  constructor(
    private readonly config: AzureKeyVaultKeyConfig,
    private readonly options: KeyBackendOptions = {},
  ) {}

  async testSign(opts: TestSignOptions = {}): Promise<void> {
    const s = readAzureSettings(this.config);
    assertMaySign('provBkeyvault', s.policy);
    const hash = opts.hashAlgorithm ?? DEFAULT_HASH;
    const algorithm = signatureAlgorithm(hash, opts.usePss ?? false);
    const clients = azureClients(s, this.options);
    try {
      const key = (await fetchKey(clients, s)) ?? (await generate(clients, s));
      assertKeyUsable(s, key);
      const data = opts.data ?? randomBytes(64);
      const signed = await clients
        .crypto(key)
        .sign(algorithm, digest(hash, data))
        .catch((err: unknown) => { throw azureError(err, `sign with key ${s.keyName}`); });
      assertSignatureVerifies('provBkeyvault', `${algorithm} signature by key ${s.keyName}`, publicKeyOf(key), {
        data,
        hash,
        scheme: algorithm.startsWith('PS') ? { kind: 'rsa-pss' } : { kind: 'rsa-pkcs1' },
        signature: Buffer.from(signed.result),
      });
    } finally {
      clients.close();
    }
  }

  inspect(): Promise<BackendFinding[]> {
    return runProbe((p) => this.probe(p));
  }

  private async probe(p: Probe): Promise<void> {
    const s = await p.step('configuration', () => readAzureSettings(this.config), (v) => `vault ${v.vaultUrl}`);
    const clients = azureClients(s, this.options);
    try {
      const subject = `key ${s.keyName}`;
      const key = await p.attempt(subject, () => fetchKey(clients, s));
      if (!key) {
        if (!s.policy.allowGenerate) p.fail(subject, `no such key in ${s.vaultUrl}, and allow_generate_key is false`);
        p.ok(subject, 'not found; test/sign will generate it (allow_generate_key is true)');
        return;
      }
      p.ok(subject, `found (version ${key.properties.version})`);
      await p.step('key type', () => assertHsm(s, key), () => 'RSA-HSM');
      await p.step('key size', () => assertSize(s, key), (bits) => `${bits} bits${s.keyBits ? ' as configured' : ''}`);
      await p.step('key state', () => assertEnabled(s, key), () => 'enabled');
      await p.step('key operations', () => assertCanSign(s, key), () => 'sign allowed');
    } finally {
      clients.close();
    }
  }
}

async function fetchKey(clients: AzureClients, s: AzureSettings): Promise<KeyVaultKey | undefined> {
  try {
    return await clients.keys.getKey(s.keyName);
  } catch (err) {
    if (isNotFound(err)) return undefined;
    throw azureError(err, `get key ${s.keyName} from ${s.vaultUrl}`);
  }
}

async function generate(clients: AzureClients, s: AzureSettings): Promise<KeyVaultKey> {
  assertMayGenerate('provBkeyvault', s.policy, `key ${s.keyName} in ${s.vaultUrl}`);
  try {
    return await clients.keys.createRsaKey(s.keyName, { hsm: true, keySize: s.keyBits, keyOps: ['sign', 'verify'] });
  } catch (err) {
    throw azureError(err, `create RSA-HSM key ${s.keyName}`);
  }
}

function modulusBits(key: KeyVaultKey): number {
  const n = Buffer.from(key.key?.n ?? []);
  const first = n.findIndex((b) => b !== 0);
  return first < 0 ? 0 : (n.length - first) * 8 - Math.clz32(n[first]!) + 24;
}

function assertHsm(s: AzureSettings, key: KeyVaultKey): void {
  if (key.keyType !== 'RSA-HSM') {
    throw new KeyBackendError('spec', 'provBkeyvault', `key ${s.keyName} has kty ${key.keyType}, not RSA-HSM`);
  }
}

function assertSize(s: AzureSettings, key: KeyVaultKey): number {
  const bits = modulusBits(key);
  if (s.keyBits !== undefined && bits !== s.keyBits) {
    throw new KeyBackendError('spec', 'provBkeyvault', `key ${s.keyName} has ${bits} bits, but key_bits is ${s.keyBits}`);
  }
  return bits;
}

function assertEnabled(s: AzureSettings, key: KeyVaultKey): void {
  if (key.properties.enabled === false) throw new KeyBackendError('disabled', 'provBkeyvault', `key ${s.keyName} is disabled`);
}

function assertCanSign(s: AzureSettings, key: KeyVaultKey): void {
  const ops = key.keyOperations ?? key.key?.keyOps ?? [];
  if (!ops.includes('sign')) {
    throw new KeyBackendError('usage', 'provBkeyvault', `key ${s.keyName} does not allow sign (key_ops: ${ops.join(',') || 'none'})`);
  }
}

function assertKeyUsable(s: AzureSettings, key: KeyVaultKey): void {
  assertHsm(s, key);
  assertSize(s, key);
  assertEnabled(s, key);
  assertCanSign(s, key);
}

function publicKeyOf(key: KeyVaultKey) {
  const n = Buffer.from(key.key!.n!).toString('base64url');
  const e = Buffer.from(key.key!.e!).toString('base64url');
  return createPublicKey({ key: { kty: 'RSA', n, e }, format: 'jwk' });
}
