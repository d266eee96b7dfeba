/** The fake's key store: keys, aliases and their metadata as KMS reports it. */
import { randomUUID } from 'node:crypto';
import { generateKeyMaterial, type FakeCurve, type FakeKeyMaterial } from './digest-crypto.js';

export type FakeKeyUsage = 'SIGN_VERIFY' | 'ENCRYPT_DECRYPT';

export interface FakeAwsKey {
  keyId: string;
  arn: string;
  keySpec: string;
  keyUsage: FakeKeyUsage;
  keyState: 'Enabled' | 'Disabled' | 'PendingDeletion';
  description: string;
  created: number;
  /** Absent for SYMMETRIC_DEFAULT keys (they cannot sign anyway). */
  material?: FakeKeyMaterial;
}

const EC: Record<string, FakeCurve> = { ECC_NIST_P256: 'P-256', ECC_NIST_P384: 'P-384', ECC_NIST_P521: 'P-521' };
const ECDSA_ALG: Record<string, string> = { ECC_NIST_P256: 'ECDSA_SHA_256', ECC_NIST_P384: 'ECDSA_SHA_384', ECC_NIST_P521: 'ECDSA_SHA_512' };
const RSA_SIGNING = ['RSASSA_PSS_SHA_256', 'RSASSA_PSS_SHA_384', 'RSASSA_PSS_SHA_512', 'RSASSA_PKCS1_V1_5_SHA_256', 'RSASSA_PKCS1_V1_5_SHA_384', 'RSASSA_PKCS1_V1_5_SHA_512'];

export function isKnownKeySpec(spec: string): boolean {
  return spec === 'SYMMETRIC_DEFAULT' || spec in EC || /^RSA_(2048|3072|4096)$/.test(spec);
}

export function signingAlgorithmsOf(key: FakeAwsKey): string[] {
  if (key.keyUsage !== 'SIGN_VERIFY') return [];
  return key.keySpec in EC ? [ECDSA_ALG[key.keySpec]!] : RSA_SIGNING;
}

export class KeyStore {
  readonly keys = new Map<string, FakeAwsKey>();
  /** alias/NAME → key id. */
  readonly aliases = new Map<string, string>();
  /** Test switches: make the service misbehave. */
  readonly faults = { corruptSignatures: false };

  constructor(
    readonly region: string,
    readonly account: string,
  ) {}

  create(opts: { keySpec: string; keyUsage: FakeKeyUsage; description?: string; keyState?: FakeAwsKey['keyState'] }): FakeAwsKey {
    const keyId = randomUUID();
    const material =
      opts.keySpec in EC
        ? generateKeyMaterial({ kind: 'EC', curve: EC[opts.keySpec]! })
        : opts.keySpec.startsWith('RSA_')
          ? generateKeyMaterial({ kind: 'RSA', bits: Number(opts.keySpec.slice(4)) })
          : undefined;
    const key: FakeAwsKey = {
      keyId,
      arn: `arn:aws:kms:${this.region}:${this.account}:key/${keyId}`,
      keySpec: opts.keySpec,
      keyUsage: opts.keyUsage,
      keyState: opts.keyState ?? 'Enabled',
      description: opts.description ?? '',
      created: Math.floor(Date.now() / 1000),
      material,
    };
    this.keys.set(keyId, key);
    return key;
  }

  /** A key by id, key ARN, alias/NAME or alias ARN. */
  resolve(keyId: string): FakeAwsKey | undefined {
    let id = keyId;
    const aliasArn = /^arn:aws:kms:[^:]*:[^:]*:(alias\/.+)$/.exec(keyId);
    const keyArn = /^arn:aws:kms:[^:]*:[^:]*:key\/(.+)$/.exec(keyId);
    if (aliasArn) id = this.aliases.get(aliasArn[1]!) ?? '';
    else if (keyArn) id = keyArn[1]!;
    else if (keyId.startsWith('alias/')) id = this.aliases.get(keyId) ?? '';
    return this.keys.get(id);
  }

  metadata(key: FakeAwsKey): Record<string, unknown> {
    return {
      AWSAccountId: this.account,
      KeyId: key.keyId,
      Arn: key.arn,
      CreationDate: key.created,
      Enabled: key.keyState === 'Enabled',
      Description: key.description,
      KeyUsage: key.keyUsage,
      KeyState: key.keyState,
      Origin: 'AWS_KMS',
      KeyManager: 'CUSTOMER',
      CustomerMasterKeySpec: key.keySpec,
      KeySpec: key.keySpec,
      MultiRegion: false,
      ...(key.keyUsage === 'SIGN_VERIFY'
        ? { SigningAlgorithms: signingAlgorithmsOf(key) }
        : { EncryptionAlgorithms: key.keySpec === 'SYMMETRIC_DEFAULT' ? ['SYMMETRIC_DEFAULT'] : ['RSAES_OAEP_SHA_1', 'RSAES_OAEP_SHA_256'] }),
    };
  }
}
