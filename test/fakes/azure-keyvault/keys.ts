/** The fake vaults' keys: every version of every key, as Key Vault's KeyBundle reports it. */
import { randomBytes } from 'node:crypto';
import { generateKeyMaterial, type FakeCurve, type FakeKeyMaterial } from '../aws-kms/digest-crypto.js';

export type FakeKty = 'RSA' | 'RSA-HSM' | 'EC' | 'EC-HSM';

export interface FakeVaultKey {
  vault: string;
  name: string;
  version: string;
  kty: FakeKty;
  keyOps: string[];
  enabled: boolean;
  created: number;
  material: FakeKeyMaterial;
}

export interface KeySeed {
  vault: string;
  name: string;
  kty?: FakeKty;
  /** RSA modulus bits; default 2048. */
  bits?: number;
  curve?: FakeCurve;
  keyOps?: string[];
  enabled?: boolean;
}

const ALL_RSA_OPS = ['encrypt', 'decrypt', 'sign', 'verify', 'wrapKey', 'unwrapKey'];

export class VaultStore {
  /** `vault/name` → versions, newest last. */
  private readonly keys = new Map<string, FakeVaultKey[]>();

  add(seed: KeySeed): FakeVaultKey {
    const kty = seed.kty ?? 'RSA-HSM';
    const material = kty.startsWith('EC')
      ? generateKeyMaterial({ kind: 'EC', curve: seed.curve ?? 'P-256' })
      : generateKeyMaterial({ kind: 'RSA', bits: seed.bits ?? 2048 });
    const key: FakeVaultKey = {
      vault: seed.vault,
      name: seed.name,
      version: randomBytes(16).toString('hex'),
      kty,
      keyOps: seed.keyOps ?? (kty.startsWith('EC') ? ['sign', 'verify'] : ALL_RSA_OPS),
      enabled: seed.enabled ?? true,
      created: Math.floor(Date.now() / 1000),
      material,
    };
    const id = `${seed.vault}/${seed.name}`;
    this.keys.set(id, [...(this.keys.get(id) ?? []), key]);
    return key;
  }

  /** The named version, or the newest when version is empty. */
  get(vault: string, name: string, version?: string): FakeVaultKey | undefined {
    const versions = this.keys.get(`${vault}/${name}`) ?? [];
    return version ? versions.find((k) => k.version === version) : versions.at(-1);
  }
}

export function keyBundle(key: FakeVaultKey, baseUrl: string): Record<string, unknown> {
  const jwk = key.material.publicKey.export({ format: 'jwk' });
  const material = key.material.kind === 'RSA' ? { n: jwk.n, e: jwk.e } : { crv: jwk.crv, x: jwk.x, y: jwk.y };
  return {
    key: { kid: `${baseUrl}/keys/${key.name}/${key.version}`, kty: key.kty, key_ops: key.keyOps, ...material },
    attributes: { enabled: key.enabled, created: key.created, updated: key.created, recoveryLevel: 'Recoverable+Purgeable', recoverableDays: 90 },
  };
}
