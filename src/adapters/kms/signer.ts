/**
 * The entry point of the managed-key backends: createKeyBackend() gives a KeyBackend for a
 * type and configuration. SDKs and the native PKCS#11 addon are imported on first use, every
 * failure comes out as a KeyBackendError, and every message and finding passes through
 * redact() with the configuration's secret values (pin, secret_key, client_secret,
 * credentials, and the private key of a credentials file).
 */
import { readFileSync } from 'node:fs';
import { KeyBackendError, firstLine, redact, type KeyBackendType } from './errors.js';
import { HASH_ALGORITHMS, isHashAlgorithm } from './hash.js';
import type { BackendFinding, KeyBackend, KeyBackendOptions, KeyConfigByType, TestSignOptions } from './types.js';

const KEY_BACKEND_TYPES: readonly KeyBackendType[] = ['pkcs11', 'provAkms', 'provBkeyvault', 'provCckms'];

/** Fields whose values are secret in every type's configuration. */
const SECRET_FIELDS = ['pin', 'secret_key', 'client_secret', 'credentials'] as const;

export function isKeyBackendType(v: unknown): v is KeyBackendType {
  return typeof v === 'string' && (KEY_BACKEND_TYPES as readonly string[]).includes(v);
}

/** The secret texts of a configuration (for redaction by callers too). */
export function secretValues(config: object): string[] {
  const c = config as Record<string, unknown>;
  return SECRET_FIELDS.map((f) => c[f]).filter((v): v is string => typeof v === 'string' && v !== '');
}

export function createKeyBackend<T extends KeyBackendType>(
  type: T,
  config: KeyConfigByType[T],
  options: KeyBackendOptions = {},
): KeyBackend {
  if (!isKeyBackendType(type)) {
    // `backend` echoes the unknown type; the message says what is wrong.
    throw new KeyBackendError('config', type, `unknown managed key type ${JSON.stringify(type)}`);
  }
  const secrets = new Set(secretValues(config));
  return new GuardedBackend(type, () => load(type, config, options, secrets), secrets);
}

/**
 * Options from the environment of `lockstep serve` / `lockstep check`:
 * LOCKSTEP_KMS_LIBRARIES (`NAME=PATH,NAME=PATH`, like repeated --kms-library),
 * LOCKSTEP_PROVB_AUTHORITY_HOST, LOCKSTEP_PROVB_CA_FILE (PEM file of extra trusted CAs) and
 * LOCKSTEP_PROVC_KMS_ENDPOINT. provAkms needs none: its `endpoint` field does the job.
 */
export function keyBackendOptionsFromEnv(env: NodeJS.ProcessEnv = process.env): KeyBackendOptions {
  const caFile = env.LOCKSTEP_PROVB_CA_FILE;
  return {
    env,
    kmsLibraries: parseKmsLibraries((env.LOCKSTEP_KMS_LIBRARIES ?? '').split(',')),
    azure: {
      authorityHost: env.LOCKSTEP_PROVB_AUTHORITY_HOST || undefined,
      caCerts: caFile ? [readFileSync(caFile, 'utf8')] : undefined,
    },
    gcp: { endpoint: env.LOCKSTEP_PROVC_KMS_ENDPOINT || undefined },
  };
}

/** `NAME=PATH` items (the --kms-library flag's form) → kms_library stanzas. */
function parseKmsLibraries(items: string[]): Record<string, string> {
  const out: Record<string, string> = {};
  for (const item of items) {
    const eq = item.indexOf('=');
    if (eq > 0) out[item.slice(0, eq).trim()] = item.slice(eq + 1).trim();
  }
  return out;
}

/** test/sign request body (use_pss, hash_algorithm) → TestSignOptions; hash_algorithm stays undefined when absent. */
export function parseTestSignRequest(type: KeyBackendType, body: Record<string, unknown> | undefined): TestSignOptions {
  const hash = body?.hash_algorithm;
  if (hash !== undefined && hash !== '' && !isHashAlgorithm(hash)) {
    throw new KeyBackendError('config', type, `hash_algorithm must be one of ${HASH_ALGORITHMS.join(', ')}`);
  }
  const pss = body?.use_pss;
  if (pss !== undefined && typeof pss !== 'boolean' && !(typeof pss === 'string' && /^(true|false)$/i.test(pss))) {
    throw new KeyBackendError('config', type, 'use_pss must be a boolean');
  }
  return {
    hashAlgorithm: hash === undefined || hash === '' ? undefined : hash,
    usePss: pss === undefined ? undefined : pss === true || (typeof pss === 'string' && /^true$/i.test(pss)),
  };
}

async function load(type: KeyBackendType, config: object, options: KeyBackendOptions, secrets: Set<string>): Promise<KeyBackend> {
  switch (type) {
    case 'pkcs11': {
      const { Pkcs11Backend } = await import('./pkcs11/backend.js');
      return new Pkcs11Backend(config as KeyConfigByType['pkcs11'], options.kmsLibraries);
    }
    case 'provAkms': {
      const { AwsKmsBackend } = await import('./aws/backend.js');
      return new AwsKmsBackend(config as KeyConfigByType['provAkms'], options);
    }
    case 'provBkeyvault': {
      const { AzureKeyVaultBackend } = await import('./azure/backend.js');
      return new AzureKeyVaultBackend(config as KeyConfigByType['provBkeyvault'], options);
    }
    case 'provCckms': {
      const { GcpKmsBackend } = await import('./gcp/backend.js');
      return new GcpKmsBackend(config as KeyConfigByType['provCckms'], options, secrets);
    }
  }
}

class GuardedBackend implements KeyBackend {
  private backend?: Promise<KeyBackend>;

  constructor(
    readonly type: KeyBackendType,
    private readonly loader: () => Promise<KeyBackend>,
    /** Shared with the backend, which may add secrets it discovers (a credentials file's key). */
    private readonly secrets: Set<string>,
  ) {}

  private get(): Promise<KeyBackend> {
    this.backend ??= this.loader();
    return this.backend;
  }

  async testSign(opts: TestSignOptions = {}): Promise<void> {
    try {
      if (opts.hashAlgorithm !== undefined && !isHashAlgorithm(opts.hashAlgorithm)) {
        throw new KeyBackendError('config', this.type, `hash_algorithm must be one of ${HASH_ALGORITHMS.join(', ')}`);
      }
      await (await this.get()).testSign(opts);
    } catch (err) {
      throw this.wrap(err);
    }
  }

  async inspect(): Promise<BackendFinding[]> {
    let findings: BackendFinding[];
    try {
      findings = await (await this.get()).inspect();
    } catch (err) {
      findings = [{ ok: false, subject: 'backend', message: this.wrap(err).message }];
    }
    return findings.map((f) => ({ ok: f.ok, subject: redact(f.subject, this.secrets), message: redact(f.message, this.secrets) }));
  }

  private wrap(err: unknown): KeyBackendError {
    const e = err instanceof KeyBackendError ? err : new KeyBackendError('backend', this.type, firstLine(err));
    const fixed = e.backend === this.type ? e : new KeyBackendError(e.code, this.type, e.message);
    return fixed.redacted(this.secrets);
  }
}
