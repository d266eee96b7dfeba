/** The Key Vault data plane: keys get/create/sign/verify on `<vault>.<vaultDomain>` hosts. */
import { hashOfLength, signDigest, verifyDigest, type DigestScheme, type FakeHash } from '../aws-kms/digest-crypto.js';
import { keyBundle, type FakeKty, type VaultStore } from './keys.js';

export interface VaultResult {
  status: number;
  body: Record<string, unknown>;
}

const ALGORITHMS: Record<string, { scheme: DigestScheme; hash: FakeHash; family: 'RSA' | 'EC' }> = {
  RS256: { scheme: 'pkcs1', hash: 'sha256', family: 'RSA' },
  RS384: { scheme: 'pkcs1', hash: 'sha384', family: 'RSA' },
  RS512: { scheme: 'pkcs1', hash: 'sha512', family: 'RSA' },
  PS256: { scheme: 'pss', hash: 'sha256', family: 'RSA' },
  PS384: { scheme: 'pss', hash: 'sha384', family: 'RSA' },
  PS512: { scheme: 'pss', hash: 'sha512', family: 'RSA' },
  ES256: { scheme: 'ecdsa', hash: 'sha256', family: 'EC' },
  ES384: { scheme: 'ecdsa', hash: 'sha384', family: 'EC' },
  ES512: { scheme: 'ecdsa', hash: 'sha512', family: 'EC' },
};

function error(status: number, code: string, message: string): VaultResult {
  return { status, body: { error: { code, message } } };
}

export function handleVault(store: VaultStore, vault: string, baseUrl: string, method: string, path: string, body: Record<string, unknown>): VaultResult {
  const m = /^\/keys\/([a-zA-Z0-9-]+)(?:\/([a-zA-Z0-9]*))?(?:\/(sign|verify))?\/?$/.exec(path);
  if (!m) return error(404, 'NotFound', `The requested path ${path} was not found`);
  const [, name, version, op] = m as unknown as [string, string, string | undefined, string | undefined];

  if (method === 'POST' && version === 'create' && !op) {
    const kty = String(body.kty ?? '') as FakeKty;
    if (!['RSA', 'RSA-HSM', 'EC', 'EC-HSM'].includes(kty)) return error(400, 'BadParameter', `Invalid kty ${kty}`);
    const bits = Number(body.key_size ?? 2048);
    if (kty.startsWith('RSA') && ![2048, 3072, 4096].includes(bits)) return error(400, 'BadParameter', `Invalid key_size ${bits}`);
    const curve = ({ 'P-256': 'P-256', 'P-384': 'P-384', 'P-521': 'P-521' } as const)[String(body.crv ?? 'P-256') as 'P-256'];
    const attrs = (body.attributes ?? {}) as { enabled?: boolean };
    const key = store.add({ vault, name, kty, bits, curve, keyOps: body.key_ops as string[] | undefined, enabled: attrs.enabled });
    return { status: 200, body: keyBundle(key, baseUrl) };
  }

  const key = store.get(vault, name, version);
  if (!key) return error(404, 'KeyNotFound', `A key with (name/id) ${name}${version ? `/${version}` : ''} was not found in this key vault. If you recently deleted this key you may be able to recover it using the correct recovery command.`);
  if (method === 'GET' && !op) return { status: 200, body: keyBundle(key, baseUrl) };
  if (method !== 'POST' || !op) return error(405, 'MethodNotAllowed', `${method} is not allowed on ${path}`);

  if (!key.enabled) return error(403, 'Forbidden', `Operation ${op} is not allowed on a disabled key.`);
  if (!key.keyOps.includes(op)) return error(403, 'Forbidden', `Operation ${op} is not permitted on this key.`);
  const alg = ALGORITHMS[String(body.alg)];
  if (!alg || !key.kty.startsWith(alg.family)) return error(400, 'BadParameter', `Invalid algorithm ${String(body.alg)} for key type ${key.kty}.`);
  const digestField = op === 'sign' ? body.value : body.digest;
  const digest = Buffer.from(String(digestField ?? ''), 'base64url');
  if (hashOfLength(digest.length) !== alg.hash) return error(400, 'BadParameter', `Invalid digest length ${digest.length} for ${String(body.alg)}.`);
  const kid = `${baseUrl}/keys/${key.name}/${key.version}`;
  if (op === 'sign') {
    const signature = signDigest(key.material, alg.scheme, alg.hash, digest);
    // Key Vault's EC signatures are raw r||s (JWS), not DER.
    const size = key.material.kind === 'EC' ? ({ 'P-256': 32, 'P-384': 48, 'P-521': 66 } as const)[key.material.curve] : 0;
    const value = alg.scheme === 'ecdsa' ? derToRaw(signature, size) : signature;
    return { status: 200, body: { kid, value: value.toString('base64url') } };
  }
  let signature: Buffer = Buffer.from(String(body.value ?? ''), 'base64url');
  if (alg.scheme === 'ecdsa') signature = rawToDer(signature);
  return { status: 200, body: { value: verifyDigest(key.material, alg.scheme, alg.hash, digest, signature) } };
}

function derToRaw(der: Buffer, size: number): Buffer {
  // SEQUENCE { INTEGER r, INTEGER s } → fixed-width r||s.
  let i = der[1]! & 0x80 ? 2 + (der[1]! & 0x7f) : 2;
  const parts: Buffer[] = [];
  for (let k = 0; k < 2; k++) {
    const len = der[i + 1]!;
    const v = der.subarray(i + 2, i + 2 + len);
    const trimmed = v[0] === 0 ? v.subarray(1) : v;
    parts.push(Buffer.concat([Buffer.alloc(Math.max(0, size - trimmed.length)), trimmed]));
    i += 2 + len;
  }
  return Buffer.concat(parts);
}

function rawToDer(raw: Buffer): Buffer {
  const half = raw.length / 2;
  const int = (b: Buffer) => {
    let v = b;
    while (v.length > 1 && v[0] === 0) v = v.subarray(1);
    if (v[0]! & 0x80) v = Buffer.concat([Buffer.from([0]), v]);
    return Buffer.concat([Buffer.from([2, v.length]), v]);
  };
  const body = Buffer.concat([int(raw.subarray(0, half)), int(raw.subarray(half))]);
  return Buffer.concat([Buffer.from([0x30, body.length]), body]);
}
