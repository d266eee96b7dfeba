/** The Cloud KMS REST v1 resources the fake serves. */
import { hashOfLength, signDigest } from '../aws-kms/digest-crypto.js';
import { ALGORITHMS, PROTECTION_LEVELS, PURPOSES, STATES, enumName } from './enums.js';
import { signingParams, type FakeCryptoKey, type FakeVersion, type KmsStore } from './keys.js';

export interface RestResult {
  status: number;
  body: Record<string, unknown>;
}

const STATUS: Record<number, string> = { 400: 'INVALID_ARGUMENT', 404: 'NOT_FOUND', 409: 'ALREADY_EXISTS' };

function error(status: number, message: string, grpcStatus = STATUS[status] ?? 'UNKNOWN'): RestResult {
  return { status, body: { error: { code: status, message, status: grpcStatus } } };
}

const RING = '(projects/[^/]+/locations/[^/]+/keyRings/[^/]+)';
const KEY = `${RING}/cryptoKeys/([^/:]+)`;
const VERSION = `(${KEY}/cryptoKeyVersions/[^/:]+)`;

export class KmsRest {
  constructor(
    private readonly store: KmsStore,
    /** Enums as numbers (`$alt=json;enum-encoding=int`) or names. */
    private readonly intEnums: boolean,
  ) {}

  private e<T extends Record<string, number>>(values: T, name: keyof T): string | number {
    return this.intEnums ? values[name]! : String(name);
  }

  handle(method: string, path: string, query: URLSearchParams, body: Record<string, unknown>): RestResult {
    let m: RegExpExecArray | null;
    if (method === 'GET' && (m = new RegExp(`^/v1/${VERSION}/publicKey$`).exec(path))) return this.publicKey(m[1]!);
    if (method === 'POST' && (m = new RegExp(`^/v1/${VERSION}:asymmetricSign$`).exec(path))) return this.sign(m[1]!, body);
    if (method === 'GET' && (m = new RegExp(`^/v1/${VERSION}$`).exec(path))) return this.getVersion(m[1]!);
    if (method === 'POST' && (m = new RegExp(`^/v1/${RING}/cryptoKeys$`).exec(path))) return this.createKey(m[1]!, query.get('cryptoKeyId') ?? '', body);
    if (method === 'GET' && (m = new RegExp(`^/v1/(${KEY})$`).exec(path))) return this.getKey(m[1]!);
    if (method === 'GET' && (m = new RegExp(`^/v1/${RING}$`).exec(path))) {
      return this.store.keyRings.has(m[1]!) ? { status: 200, body: { name: m[1], createTime: new Date().toISOString() } } : error(404, `KeyRing ${m[1]} not found.`);
    }
    return error(404, `The requested URL ${path} was not found on this server.`);
  }

  private keyJson(key: FakeCryptoKey): Record<string, unknown> {
    return {
      name: key.name,
      purpose: this.e(PURPOSES, key.purpose),
      createTime: key.created,
      versionTemplate: { algorithm: this.e(ALGORITHMS, key.algorithm), protectionLevel: this.e(PROTECTION_LEVELS, key.protectionLevel) },
      destroyScheduledDuration: '2592000s',
    };
  }

  private versionJson(v: FakeVersion): Record<string, unknown> {
    return { name: v.name, state: this.e(STATES, v.state), algorithm: this.e(ALGORITHMS, v.algorithm), protectionLevel: this.e(PROTECTION_LEVELS, 'SOFTWARE'), createTime: v.created, generateTime: v.created };
  }

  private getKey(name: string): RestResult {
    const key = this.store.keys.get(name);
    return key ? { status: 200, body: this.keyJson(key) } : error(404, `CryptoKey ${name} not found.`);
  }

  private getVersion(name: string): RestResult {
    const v = this.store.version(name);
    return v ? { status: 200, body: this.versionJson(v) } : error(404, `CryptoKeyVersion ${name} not found.`);
  }

  private createKey(ring: string, id: string, body: Record<string, unknown>): RestResult {
    if (!this.store.keyRings.has(ring)) return error(404, `KeyRing ${ring} not found.`);
    if (!/^[a-zA-Z0-9_-]{1,63}$/.test(id)) return error(400, 'Invalid value for crypto_key_id.');
    const name = `${ring}/cryptoKeys/${id}`;
    if (this.store.keys.has(name)) return error(409, `CryptoKey ${name} already exists.`);
    const purpose = enumName(PURPOSES, body.purpose);
    const template = (body.versionTemplate ?? {}) as Record<string, unknown>;
    const algorithm = enumName(ALGORITHMS, template.algorithm ?? (purpose === 'ENCRYPT_DECRYPT' ? 'GOOGLE_SYMMETRIC_ENCRYPTION' : undefined));
    if (!purpose || !algorithm) return error(400, 'The request must specify a valid purpose and version_template.algorithm.');
    if ((purpose === 'ASYMMETRIC_SIGN') !== (signingParams(algorithm) !== undefined)) return error(400, `Algorithm ${algorithm} is not valid for purpose ${purpose}.`);
    const protectionLevel = enumName(PROTECTION_LEVELS, template.protectionLevel) ?? 'SOFTWARE';
    return { status: 200, body: this.keyJson(this.store.createKey(name, purpose, algorithm, { protectionLevel })) };
  }

  private publicKey(name: string): RestResult {
    const v = this.store.version(name);
    if (!v) return error(404, `CryptoKeyVersion ${name} not found.`);
    if (!v.material) return error(400, `CryptoKeyVersion ${name} has no public key.`, 'FAILED_PRECONDITION');
    if (v.state !== 'ENABLED') return error(400, `${name} is not enabled, current state is: ${v.state}.`, 'FAILED_PRECONDITION');
    const pem = v.material.publicKey.export({ format: 'pem', type: 'spki' }).toString();
    return { status: 200, body: { pem, algorithm: this.e(ALGORITHMS, v.algorithm), name, protectionLevel: this.e(PROTECTION_LEVELS, 'SOFTWARE') } };
  }

  private sign(name: string, body: Record<string, unknown>): RestResult {
    const v = this.store.version(name);
    if (!v) return error(404, `CryptoKeyVersion ${name} not found.`);
    const params = signingParams(v.algorithm);
    if (!params || !v.material) return error(400, `${name} has purpose ${this.store.keys.get(name.split('/cryptoKeyVersions/')[0]!)!.purpose}, not ASYMMETRIC_SIGN.`, 'FAILED_PRECONDITION');
    if (v.state !== 'ENABLED') return error(400, `${name} is not enabled, current state is: ${v.state}.`, 'FAILED_PRECONDITION');
    const digests = (body.digest ?? {}) as Record<string, string>;
    const given = digests[params.hash];
    const digest = given === undefined ? undefined : Buffer.from(given, 'base64');
    if (!digest || hashOfLength(digest.length) !== params.hash) return error(400, `The digest must be a ${params.hash.toUpperCase()} digest for algorithm ${v.algorithm}.`);
    const signature = signDigest(v.material, params.scheme, params.hash, digest);
    return { status: 200, body: { signature: signature.toString('base64'), name, verifiedDigestCrc32c: false, protectionLevel: this.e(PROTECTION_LEVELS, 'SOFTWARE') } };
  }
}
