/** The fake's key rings, crypto keys and versions. */
import { generateKeyMaterial, type DigestScheme, type FakeHash, type FakeKeyMaterial } from '../aws-kms/digest-crypto.js';
import type { AlgorithmName, PurposeName, StateName } from './enums.js';

export interface FakeVersion {
  name: string;
  state: StateName;
  algorithm: AlgorithmName;
  created: string;
  material?: FakeKeyMaterial;
}

export interface FakeCryptoKey {
  name: string;
  purpose: PurposeName;
  algorithm: AlgorithmName;
  protectionLevel: 'SOFTWARE' | 'HSM';
  created: string;
  versions: FakeVersion[];
}

/** What an asymmetric signing algorithm means for the fake's crypto. */
export function signingParams(algorithm: AlgorithmName): { scheme: DigestScheme; hash: FakeHash } | undefined {
  if (algorithm.startsWith('EC_SIGN_')) return { scheme: 'ecdsa', hash: `sha${algorithm.slice(-3)}` as FakeHash };
  if (algorithm.startsWith('RSA_SIGN_')) return { scheme: algorithm.includes('_PSS_') ? 'pss' : 'pkcs1', hash: `sha${algorithm.slice(-3)}` as FakeHash };
  return undefined;
}

function material(algorithm: AlgorithmName): FakeKeyMaterial | undefined {
  if (algorithm === 'EC_SIGN_P256_SHA256') return generateKeyMaterial({ kind: 'EC', curve: 'P-256' });
  if (algorithm === 'EC_SIGN_P384_SHA384') return generateKeyMaterial({ kind: 'EC', curve: 'P-384' });
  const bits = /_(2048|3072|4096)_/.exec(algorithm)?.[1];
  return bits ? generateKeyMaterial({ kind: 'RSA', bits: Number(bits) }) : undefined;
}

export class KmsStore {
  readonly keyRings = new Set<string>();
  readonly keys = new Map<string, FakeCryptoKey>();

  createKey(name: string, purpose: PurposeName, algorithm: AlgorithmName, opts: { protectionLevel?: 'SOFTWARE' | 'HSM'; versions?: number; state?: StateName } = {}): FakeCryptoKey {
    const key: FakeCryptoKey = { name, purpose, algorithm, protectionLevel: opts.protectionLevel ?? 'SOFTWARE', created: new Date().toISOString(), versions: [] };
    for (let i = 0; i < (opts.versions ?? 1); i++) this.addVersion(key, opts.state ?? 'ENABLED');
    this.keys.set(name, key);
    return key;
  }

  addVersion(key: FakeCryptoKey, state: StateName = 'ENABLED', algorithm: AlgorithmName = key.algorithm): FakeVersion {
    const version: FakeVersion = { name: `${key.name}/cryptoKeyVersions/${key.versions.length + 1}`, state, algorithm, created: new Date().toISOString(), material: material(algorithm) };
    key.versions.push(version);
    return version;
  }

  version(name: string): FakeVersion | undefined {
    const [keyName] = name.split('/cryptoKeyVersions/');
    return this.keys.get(keyName!)?.versions.find((v) => v.name === name);
  }
}
