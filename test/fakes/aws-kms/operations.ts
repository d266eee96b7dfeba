/** The TrentService operations the fake answers, each a function of the JSON request. */
import { createHash } from 'node:crypto';
import { hashOfLength, signDigest, verifyDigest, type DigestScheme, type FakeHash } from './digest-crypto.js';
import { isKnownKeySpec, signingAlgorithmsOf, type FakeAwsKey, type KeyStore } from './keys.js';

export class KmsError extends Error {
  constructor(
    readonly type: string,
    message: string,
  ) {
    super(message);
  }
}

type Json = Record<string, unknown>;
export type Operation = (store: KeyStore, req: Json) => Json;

function str(req: Json, name: string): string {
  const v = req[name];
  if (typeof v !== 'string' || v === '') throw new KmsError('ValidationException', `1 validation error detected: Value null at '${lower(name)}' failed to satisfy constraint: Member must not be null`);
  return v;
}

function lower(s: string): string {
  return s[0]!.toLowerCase() + s.slice(1);
}

function keyOf(store: KeyStore, req: Json): FakeAwsKey {
  const id = str(req, 'KeyId');
  const key = store.resolve(id);
  if (!key) {
    throw new KmsError('NotFoundException', id.includes('alias/')
      ? `Alias arn:aws:kms:${store.region}:${store.account}:${id.replace(/^.*?(alias\/)/, '$1')} is not found.`
      : `Key '${id}' does not exist`);
  }
  return key;
}

function usable(key: FakeAwsKey, operation: string): FakeAwsKey {
  if (key.keyState === 'Disabled') throw new KmsError('DisabledException', `${key.arn} is disabled.`);
  if (key.keyState !== 'Enabled') throw new KmsError('KMSInvalidStateException', `${key.arn} is pending deletion.`);
  if (key.keyUsage !== 'SIGN_VERIFY') {
    throw new KmsError('InvalidKeyUsageException', `${key.arn} key usage is ${key.keyUsage} which is not valid for ${operation}.`);
  }
  return key;
}

function scheme(algorithm: string): { scheme: DigestScheme; hash: FakeHash } {
  const hash = `sha${algorithm.slice(-3)}` as FakeHash;
  return { scheme: algorithm.startsWith('ECDSA') ? 'ecdsa' : algorithm.startsWith('RSASSA_PSS') ? 'pss' : 'pkcs1', hash };
}

/** Message as the digest to sign: hashed for RAW, checked for length for DIGEST. */
function messageDigest(req: Json, hash: FakeHash): Buffer {
  const message = Buffer.from(str(req, 'Message'), 'base64');
  if ((req.MessageType ?? 'RAW') === 'RAW') return createHash(hash).update(message).digest();
  if (hashOfLength(message.length) !== hash) {
    throw new KmsError('ValidationException', `Digest is invalid length for algorithm ${String(req.SigningAlgorithm)}.`);
  }
  return message;
}

function signingAlgorithm(key: FakeAwsKey, req: Json): string {
  const algorithm = str(req, 'SigningAlgorithm');
  if (!signingAlgorithmsOf(key).includes(algorithm)) {
    throw new KmsError('InvalidKeyUsageException', `Algorithm ${algorithm} is incompatible with key spec ${key.keySpec}.`);
  }
  return algorithm;
}

export const OPERATIONS: Record<string, Operation> = {
  CreateKey(store, req) {
    const keySpec = String(req.KeySpec ?? req.CustomerMasterKeySpec ?? 'SYMMETRIC_DEFAULT');
    const keyUsage = String(req.KeyUsage ?? 'ENCRYPT_DECRYPT');
    if (!isKnownKeySpec(keySpec)) throw new KmsError('ValidationException', `KeySpec ${keySpec} is not valid.`);
    if (keyUsage !== 'SIGN_VERIFY' && keyUsage !== 'ENCRYPT_DECRYPT') throw new KmsError('ValidationException', `KeyUsage ${keyUsage} is not valid.`);
    if (keyUsage === 'SIGN_VERIFY' && keySpec === 'SYMMETRIC_DEFAULT') {
      throw new KmsError('ValidationException', 'KeyUsage SIGN_VERIFY is not compatible with KeySpec SYMMETRIC_DEFAULT');
    }
    const key = store.create({ keySpec, keyUsage, description: String(req.Description ?? '') });
    return { KeyMetadata: store.metadata(key) };
  },

  DescribeKey(store, req) {
    return { KeyMetadata: store.metadata(keyOf(store, req)) };
  },

  CreateAlias(store, req) {
    const alias = str(req, 'AliasName');
    if (!alias.startsWith('alias/') || alias.startsWith('alias/aws/')) {
      throw new KmsError('ValidationException', `Alias must start with the prefix "alias/" and may not start with "alias/aws/".`);
    }
    const key = store.resolve(str(req, 'TargetKeyId'));
    if (!key) throw new KmsError('NotFoundException', `Key '${String(req.TargetKeyId)}' does not exist`);
    if (store.aliases.has(alias)) throw new KmsError('AlreadyExistsException', `An alias with the name arn:aws:kms:${store.region}:${store.account}:${alias} already exists`);
    store.aliases.set(alias, key.keyId);
    return {};
  },

  ListAliases(store, req) {
    const only = typeof req.KeyId === 'string' ? store.resolve(req.KeyId)?.keyId : undefined;
    const aliases = [...store.aliases]
      .filter(([, id]) => req.KeyId === undefined || id === only)
      .map(([name, id]) => ({ AliasName: name, AliasArn: `arn:aws:kms:${store.region}:${store.account}:${name}`, TargetKeyId: id }));
    return { Aliases: aliases, Truncated: false };
  },

  GetPublicKey(store, req) {
    const key = keyOf(store, req);
    if (key.keyState === 'Disabled') throw new KmsError('DisabledException', `${key.arn} is disabled.`);
    if (!key.material) throw new KmsError('UnsupportedOperationException', `${key.arn} key usage is ${key.keyUsage} which is not valid for GetPublicKey.`);
    return {
      KeyId: key.arn,
      PublicKey: key.material.publicKey.export({ format: 'der', type: 'spki' }).toString('base64'),
      KeySpec: key.keySpec,
      CustomerMasterKeySpec: key.keySpec,
      KeyUsage: key.keyUsage,
      ...(key.keyUsage === 'SIGN_VERIFY' ? { SigningAlgorithms: signingAlgorithmsOf(key) } : {}),
    };
  },

  Sign(store, req) {
    const key = usable(keyOf(store, req), 'Sign');
    const algorithm = signingAlgorithm(key, req);
    const { scheme: s, hash } = scheme(algorithm);
    const signature = signDigest(key.material!, s, hash, messageDigest(req, hash));
    if (store.faults.corruptSignatures) signature[signature.length - 1]! ^= 0x01;
    return { KeyId: key.arn, Signature: signature.toString('base64'), SigningAlgorithm: algorithm };
  },

  Verify(store, req) {
    const key = usable(keyOf(store, req), 'Verify');
    const algorithm = signingAlgorithm(key, req);
    const { scheme: s, hash } = scheme(algorithm);
    const ok = verifyDigest(key.material!, s, hash, messageDigest(req, hash), Buffer.from(str(req, 'Signature'), 'base64'));
    if (!ok) throw new KmsError('KMSInvalidSignatureException', '');
    return { KeyId: key.arn, SignatureValid: true, SigningAlgorithm: algorithm };
  },
};
