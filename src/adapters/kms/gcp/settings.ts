/**
 * The provCckms key configuration, validated. `credentials` is the path of a credentials file
 * (the spec); JSON text is accepted too, since a manifest's `${file:...}` reference gives the
 * file's contents. PROVC_CREDENTIALS / PROVC_APPLICATION_CREDENTIALS, PROVC_PROJECT and
 * PROVC_REGION fill absent fields; with no credentials at all the SDK's default chain applies.
 */
import { FieldReader } from '../config.js';
import { KeyBackendError } from '../errors.js';
import { readPolicy, type KeyPolicy } from '../policy.js';
import type { GcpKmsKeyConfig } from '../types.js';
import { parseGcpAlgorithm, type GcpAlgorithm } from './algorithms.js';

export interface GcpSettings {
  credentials?: { json: string } | { path: string };
  keyRingName: string;
  cryptoKeyId: string;
  cryptoKeyName: string;
  versionName: string;
  algorithm: GcpAlgorithm;
  policy: KeyPolicy;
}

const SEGMENT = /^[a-zA-Z0-9_-]+$/;

export function readGcpSettings(config: GcpKmsKeyConfig, env: NodeJS.ProcessEnv): GcpSettings {
  const r = new FieldReader('provCckms', config);
  const field = (name: string, envName?: string): string => {
    const v = r.str(name) ?? (envName ? env[envName]?.trim() || undefined : undefined);
    if (v === undefined) throw new KeyBackendError('config', 'provCckms', `${name} is required${envName ? ` (or ${envName})` : ''}`);
    if (!SEGMENT.test(v)) throw new KeyBackendError('config', 'provCckms', `${name} may only contain letters, digits, _ and -`);
    return v;
  };
  const project = field('project', 'PROVC_PROJECT');
  const region = field('region', 'PROVC_REGION');
  const keyRing = field('key_ring');
  const cryptoKey = field('crypto_key');
  const version = r.str('crypto_key_version') ?? '1';
  if (!/^\d+$/.test(version)) throw new KeyBackendError('config', 'provCckms', 'crypto_key_version must be a number');
  const keyRingName = `projects/${project}/locations/${region}/keyRings/${keyRing}`;
  const cryptoKeyName = `${keyRingName}/cryptoKeys/${cryptoKey}`;
  const creds = r.secret('credentials') ?? (env.PROVC_CREDENTIALS || env.PROVC_APPLICATION_CREDENTIALS || undefined);
  return {
    credentials: creds === undefined ? undefined : creds.trim().startsWith('{') ? { json: creds } : { path: creds },
    keyRingName,
    cryptoKeyId: cryptoKey,
    cryptoKeyName,
    versionName: `${cryptoKeyName}/cryptoKeyVersions/${version}`,
    algorithm: parseGcpAlgorithm(r.required('algorithm')),
    policy: readPolicy('provCckms', config),
  };
}
