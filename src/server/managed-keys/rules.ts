/**
 * The rules a managed-key configuration must follow before it is stored, per type. Each rule
 * returns its problems as messages; all of them are answered at once. Messages name fields and
 * echo only values that are not secret.
 */
import { AWS_KEY_TYPES } from '../../adapters/kms/aws/settings.js';
import { AZURE_ENVIRONMENTS, AZURE_KEY_TYPES } from '../../adapters/kms/azure/settings.js';
import { RSA_KEY_BITS } from '../../adapters/kms/config.js';
import { parseCurve, SPEC_CURVE_NAMES } from '../../adapters/kms/curves.js';
import { GCP_ALGORITHMS } from '../../adapters/kms/gcp/algorithms.js';
import { mechanismFamily } from '../../adapters/kms/pkcs11/mechanisms.js';
import type { JsonObject } from '../util/json.js';
import type { ManagedKeyType } from './fields.js';

export interface RuleContext {
  /** kms_library stanza names of the server (`--kms-library NAME=PATH`). */
  kmsLibraries: readonly string[];
  /** The server's environment, for the spec's PROVC_* fallbacks. */
  env: NodeJS.ProcessEnv;
}

/** key_bits compared as text, as the value is stored (so "2048.0" is not 2048). */
const RSA_BITS: readonly string[] = RSA_KEY_BITS.map(String);
const GCP_SEGMENT = /^[a-zA-Z0-9_-]+$/;

export function configProblems(type: ManagedKeyType, c: JsonObject, ctx: RuleContext): string[] {
  switch (type) {
    case 'pkcs11':
      return pkcs11Problems(c, ctx);
    case 'provAkms':
      return awsProblems(c);
    case 'provBkeyvault':
      return azureProblems(c);
    case 'provCckms':
      return gcpProblems(c, ctx);
  }
}

/** A name is lower-case (the spec), one path segment, and not empty. */
export function nameProblems(name: string): string[] {
  if (name.trim() === '') return ['name is required'];
  return name === name.toLowerCase() ? [] : [`name "${name}" must be lower-case`];
}

const str = (c: JsonObject, field: string): string | undefined => (typeof c[field] === 'string' ? c[field] : undefined);
const isTrue = (c: JsonObject, field: string): boolean => c[field] === true;
const isOneOf = (values: readonly string[], value: string): boolean => values.includes(value);

function required(c: JsonObject, fields: string[]): string[] {
  return fields.filter((f) => c[f] === undefined).map((f) => `${f} is required`);
}

function pkcs11Problems(c: JsonObject, ctx: RuleContext): string[] {
  const problems = required(c, ['library', 'mechanism', 'pin']);
  const library = str(c, 'library');
  if (library !== undefined && !ctx.kmsLibraries.includes(library)) {
    const known = ctx.kmsLibraries.length === 0 ? 'the server has none (serve --kms-library NAME=PATH)' : `the server has: ${ctx.kmsLibraries.join(', ')}`;
    problems.push(`library "${library}" is not a kms_library stanza of the server; ${known}`);
  }
  const mechanism = str(c, 'mechanism');
  if (mechanism !== undefined && !/^0x[0-9a-fA-F]{1,8}$/.test(mechanism)) {
    problems.push(`mechanism "${mechanism}" must be a hexadecimal string prefixed by 0x (e.g. 0x1041)`);
  }
  if (c.key_label === undefined && c.key_id === undefined) problems.push('key_label or key_id is required');
  if (c.slot === undefined && c.token_label === undefined) problems.push('slot or token_label is required');
  const slot = str(c, 'slot');
  if (slot !== undefined && !/^\d+$/.test(slot)) problems.push(`slot "${slot}" must be a decimal number`);
  const curve = str(c, 'curve');
  if (curve !== undefined && !validCurve(curve)) problems.push(`curve "${curve}" must be one of ${SPEC_CURVE_NAMES.join(', ')}`);
  const bits = c.key_bits;
  if (bits !== undefined && bits !== 0 && !((typeof bits === 'number' || typeof bits === 'string') && RSA_BITS.includes(String(bits)))) problems.push(`key_bits must be one of ${RSA_BITS.join(', ')}`);
  if (typeof c.max_parallel === 'number' && c.max_parallel < 1) problems.push('max_parallel must be at least 1');
  if (isTrue(c, 'allow_generate_key')) problems.push(...pkcs11GenerationProblems(c, mechanism));
  return problems;
}

/** Generation needs what the mechanism's key family needs: a curve for EC, key_bits for RSA. */
function pkcs11GenerationProblems(c: JsonObject, mechanism: string | undefined): string[] {
  const family = mechanism === undefined ? undefined : mechanismFamily(Number.parseInt(mechanism.slice(2), 16));
  const hasCurve = c.curve !== undefined;
  const hasBits = c.key_bits !== undefined && c.key_bits !== 0;
  if (family === 'EC' && !hasCurve) return ['curve is required when allow_generate_key is true (EC mechanism)'];
  if (family === 'RSA' && !hasBits) return ['key_bits is required when allow_generate_key is true (RSA mechanism)'];
  if (family === undefined && !hasCurve && !hasBits) return ['curve or key_bits is required when allow_generate_key is true'];
  return [];
}

function validCurve(curve: string): boolean {
  try {
    parseCurve('pkcs11', curve);
    return true;
  } catch {
    return false;
  }
}

function awsProblems(c: JsonObject): string[] {
  const problems = required(c, ['key_type', 'kms_key']);
  const keyType = str(c, 'key_type')?.toUpperCase();
  if (keyType !== undefined && !isOneOf(AWS_KEY_TYPES, keyType)) problems.push('key_type must be RSA or ECDSA');
  const bits = str(c, 'key_bits');
  if (keyType === 'RSA' && bits === undefined) problems.push('key_bits is required when key_type is RSA');
  if (bits !== undefined && !RSA_BITS.includes(bits)) problems.push(`key_bits must be one of ${RSA_BITS.join(', ')}`);
  const curve = str(c, 'curve');
  if (keyType === 'ECDSA' && curve === undefined) problems.push('curve is required when key_type is ECDSA');
  if (curve !== undefined && !isOneOf(SPEC_CURVE_NAMES, curve)) problems.push(`curve "${curve}" must be one of ${SPEC_CURVE_NAMES.join(', ')}`);
  const kmsKey = str(c, 'kms_key');
  if (kmsKey !== undefined && isTrue(c, 'allow_generate_key') && !isAwsAlias(kmsKey)) {
    problems.push('kms_key must be an alias (alias/NAME) when allow_generate_key is true');
  }
  if ((c.access_key === undefined) !== (c.secret_key === undefined)) problems.push('access_key and secret_key must be given together');
  const endpoint = str(c, 'endpoint');
  if (endpoint !== undefined && !isHttpUrl(endpoint)) problems.push(`endpoint "${endpoint}" must be an http or https URL`);
  return problems;
}

function isAwsAlias(kmsKey: string): boolean {
  return kmsKey.startsWith('alias/') || /^arn:[^:]+:kms:[^:]*:[^:]*:alias\//.test(kmsKey);
}

function isHttpUrl(text: string): boolean {
  try {
    return ['http:', 'https:'].includes(new URL(text).protocol);
  } catch {
    return false;
  }
}

function azureProblems(c: JsonObject): string[] {
  const problems = required(c, ['tenant_id', 'vault_name', 'key_name', 'key_type']);
  const keyType = str(c, 'key_type');
  if (keyType !== undefined && !isOneOf(AZURE_KEY_TYPES, keyType.toUpperCase())) problems.push('key_type must be RSA-HSM (the only supported value)');
  if ((c.client_id === undefined) !== (c.client_secret === undefined)) {
    problems.push('client_id and client_secret must be given together (or both left out for a managed identity)');
  }
  const vault = str(c, 'vault_name');
  if (vault !== undefined && !/^[a-zA-Z0-9-]+$/.test(vault)) problems.push(`vault_name "${vault}" may only contain letters, digits and hyphens`);
  const environment = str(c, 'environment');
  if (environment !== undefined && !isOneOf(AZURE_ENVIRONMENTS, environment.toUpperCase())) {
    problems.push(`environment must be one of ${AZURE_ENVIRONMENTS.join(', ')}`);
  }
  const bits = str(c, 'key_bits');
  if (bits !== undefined && !RSA_BITS.includes(bits)) problems.push(`key_bits must be one of ${RSA_BITS.join(', ')}`);
  if (bits === undefined && isTrue(c, 'allow_generate_key')) problems.push('key_bits is required when allow_generate_key is true');
  return problems;
}

function gcpProblems(c: JsonObject, ctx: RuleContext): string[] {
  const problems = required(c, ['crypto_key', 'key_ring', 'algorithm']);
  const fallback = (field: string, ...vars: string[]) => {
    if (c[field] === undefined && !vars.some((v) => (ctx.env[v] ?? '').trim() !== '')) {
      problems.push(`${field} is required (or ${vars.join(' / ')} in the server's environment)`);
    }
  };
  fallback('credentials', 'PROVC_CREDENTIALS', 'PROVC_APPLICATION_CREDENTIALS');
  fallback('project', 'PROVC_PROJECT');
  fallback('region', 'PROVC_REGION');
  for (const field of ['project', 'region', 'key_ring', 'crypto_key']) {
    const value = str(c, field);
    if (value !== undefined && !GCP_SEGMENT.test(value)) problems.push(`${field} "${value}" may only contain letters, digits, _ and -`);
  }
  const version = str(c, 'crypto_key_version');
  if (version !== undefined && !/^\d+$/.test(version)) problems.push(`crypto_key_version "${version}" must be a number`);
  const algorithm = str(c, 'algorithm');
  if (algorithm !== undefined && !isOneOf(GCP_ALGORITHMS, algorithm)) problems.push(`algorithm "${algorithm}" must be one of ${GCP_ALGORITHMS.join(', ')}`);
  return problems;
}
