/** The pkcs11 key configuration, validated. */
import { FieldReader, RSA_KEY_BITS } from '../config.js';
import { parseCurve, type CurveName } from '../curves.js';
import { KeyBackendError } from '../errors.js';
import { readPolicy, type KeyPolicy } from '../policy.js';
import type { Pkcs11KeyConfig } from '../types.js';
import { mechanismFamily, parseMechanism } from './mechanisms.js';

export interface Pkcs11Settings {
  libraryPath: string;
  slot?: string;
  tokenLabel?: string;
  pin: string;
  keyLabel?: string;
  keyId?: string;
  mechanism: number;
  curve?: CurveName;
  keyBits?: number;
  forceRw: boolean;
  maxParallel: number;
  policy: KeyPolicy;
}

export function readPkcs11Settings(config: Pkcs11KeyConfig, libraries: Record<string, string> = {}): Pkcs11Settings {
  const r = new FieldReader('pkcs11', config);
  const slot = r.str('slot');
  if (slot !== undefined && !/^\d+$/.test(slot)) {
    throw new KeyBackendError('config', 'pkcs11', 'slot must be a decimal number');
  }
  const tokenLabel = r.str('token_label');
  if (slot === undefined && tokenLabel === undefined) {
    throw new KeyBackendError('config', 'pkcs11', 'slot or token_label is required');
  }
  const keyLabel = r.str('key_label');
  const keyId = r.str('key_id');
  if (keyLabel === undefined && keyId === undefined) {
    throw new KeyBackendError('config', 'pkcs11', 'key_label or key_id is required');
  }
  const pin = r.secret('pin');
  if (pin === undefined) throw new KeyBackendError('config', 'pkcs11', 'pin is required');
  const maxParallel = r.int('max_parallel') ?? 1;
  if (maxParallel < 1) throw new KeyBackendError('config', 'pkcs11', 'max_parallel must be at least 1');
  const curveText = r.str('curve');
  const settings: Pkcs11Settings = {
    libraryPath: resolveLibrary(r.required('library'), libraries),
    slot,
    tokenLabel,
    pin,
    keyLabel,
    keyId,
    mechanism: parseMechanism(r.required('mechanism')),
    curve: curveText === undefined ? undefined : parseCurve('pkcs11', curveText),
    keyBits: r.oneOf('key_bits', RSA_KEY_BITS),
    forceRw: r.bool('force_rw_session'),
    maxParallel,
    policy: readPolicy('pkcs11', config),
  };
  if (settings.policy.allowGenerate) {
    const family = mechanismFamily(settings.mechanism);
    if (family === 'EC' && !settings.curve) throw new KeyBackendError('config', 'pkcs11', 'curve is required when allow_generate_key is true');
    if (family === 'RSA' && !settings.keyBits) throw new KeyBackendError('config', 'pkcs11', 'key_bits is required when allow_generate_key is true');
  }
  return settings;
}

/** `library` names a kms_library stanza; a value with a `/` is already a path. */
function resolveLibrary(library: string, libraries: Record<string, string>): string {
  if (library.includes('/')) return library;
  const path = libraries[library];
  if (!path) throw new KeyBackendError('config', 'pkcs11', `library "${library}" is not a configured kms_library`);
  return path;
}

/** What makes two configurations the same key (for the max_parallel semaphore). */
export function keyIdentity(s: Pkcs11Settings): string {
  return JSON.stringify([s.libraryPath, s.slot ?? null, s.tokenLabel ?? null, s.keyLabel ?? null, s.keyId ?? null]);
}
