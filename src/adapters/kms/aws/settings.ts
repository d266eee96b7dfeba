/** The provAkms key configuration, validated. */
import { FieldReader, RSA_KEY_BITS } from '../config.js';
import { parseCurve, type CurveName } from '../curves.js';
import { KeyBackendError } from '../errors.js';
import { readPolicy, type KeyPolicy } from '../policy.js';
import type { AwsKmsKeyConfig } from '../types.js';

/** The spec's provAkms `key_type` values (compared case-insensitively). */
export const AWS_KEY_TYPES = ['RSA', 'ECDSA'] as const;
type AwsKeyType = (typeof AWS_KEY_TYPES)[number];

function isAwsKeyType(text: string): text is AwsKeyType {
  return (AWS_KEY_TYPES as readonly string[]).includes(text);
}

export interface AwsSettings {
  kmsKey: string;
  region: string;
  endpoint?: string;
  /** Absent: the SDK's own chain (environment, shared profile, instance profile). */
  credentials?: { accessKeyId: string; secretAccessKey: string; sessionToken?: string };
  keyType: AwsKeyType;
  curve?: CurveName;
  keyBits?: number;
  policy: KeyPolicy;
}

export function readAwsSettings(config: AwsKmsKeyConfig, env: NodeJS.ProcessEnv): AwsSettings {
  const r = new FieldReader('provAkms', config);
  const keyType = r.required('key_type').toUpperCase();
  if (!isAwsKeyType(keyType)) {
    throw new KeyBackendError('config', 'provAkms', 'key_type must be RSA or ECDSA');
  }
  const keyBits = r.oneOf('key_bits', RSA_KEY_BITS);
  const curveText = r.str('curve');
  if (keyType === 'RSA' && keyBits === undefined) throw new KeyBackendError('config', 'provAkms', 'key_bits is required when key_type is RSA');
  if (keyType === 'ECDSA' && curveText === undefined) throw new KeyBackendError('config', 'provAkms', 'curve is required when key_type is ECDSA');
  const policy = readPolicy('provAkms', config);
  const kmsKey = r.required('kms_key');
  if (policy.allowGenerate && !isAlias(kmsKey)) {
    throw new KeyBackendError('config', 'provAkms', 'kms_key must be an alias (alias/NAME) when allow_generate_key is true');
  }
  return {
    kmsKey,
    region: r.str('region') ?? nonEmpty(env.PROVA_REGION) ?? nonEmpty(env.PROVA_DEFAULT_REGION) ?? 'us-east-1',
    endpoint: r.str('endpoint'),
    credentials: readCredentials(r, env),
    keyType,
    curve: keyType === 'ECDSA' ? parseCurve('provAkms', curveText!) : undefined,
    keyBits: keyType === 'RSA' ? keyBits : undefined,
    policy,
  };
}

/** access_key/secret_key, else PROVA_ACCESS_KEY_ID/PROVA_SECRET_ACCESS_KEY, else the SDK's chain. */
function readCredentials(r: FieldReader, env: NodeJS.ProcessEnv): AwsSettings['credentials'] {
  const accessKeyId = r.str('access_key');
  const secretAccessKey = r.secret('secret_key');
  if ((accessKeyId === undefined) !== (secretAccessKey === undefined)) {
    throw new KeyBackendError('config', 'provAkms', 'access_key and secret_key must be given together');
  }
  if (accessKeyId && secretAccessKey) return { accessKeyId, secretAccessKey };
  const envId = nonEmpty(env.PROVA_ACCESS_KEY_ID);
  const envSecret = nonEmpty(env.PROVA_SECRET_ACCESS_KEY);
  if (envId && envSecret) return { accessKeyId: envId, secretAccessKey: envSecret, sessionToken: nonEmpty(env.PROVA_SESSION_TOKEN) };
  return undefined;
}

function nonEmpty(v: string | undefined): string | undefined {
  return v === undefined || v.trim() === '' ? undefined : v;
}

export function isAlias(kmsKey: string): boolean {
  return kmsKey.startsWith('alias/') || /^arn:[^:]+:kms:[^:]*:[^:]*:alias\//.test(kmsKey);
}

/** The bare alias name CreateAlias wants (`alias/NAME`). */
export function aliasName(kmsKey: string): string {
  return kmsKey.startsWith('alias/') ? kmsKey : kmsKey.slice(kmsKey.indexOf(':alias/') + 1);
}
