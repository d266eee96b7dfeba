import type { Diagnostics } from '../../core/diagnostics.js';
import { assertNever } from '../../core/plan.js';
import { isSecret } from '../../core/secret.js';
import { describeMechanism, mechanismFamily } from '../../adapters/kms/pkcs11/mechanisms.js';
import { isUnset } from './attrs.js';
import { REQUIRED_FIELDS } from './fields.js';
import { reportAt } from './report.js';
import type { ManagedKeyDocument } from './types.js';
import { parseBoolText, parseCurve, parseMechanism, parseUpper, parseWhole } from './values.js';

const KEY_BITS_TEXT = '2048, 3072 or 4096';
const CURVES_TEXT = 'P256, P384 or P521';

/** The rules between fields of one key's config, per backend (effective values). */
export function checkBackend(doc: ManagedKeyDocument, diags: Diagnostics): void {
  checkRequiredSecrets(doc, diags);
  const type = doc.data.type;
  switch (type) {
    case 'pkcs11':
      return checkPkcs11(doc, diags);
    case 'provAkms':
      return checkAwsKms(doc, diags);
    case 'provBkeyvault':
      return checkKeyVault(doc, diags);
    case 'provCckms':
      return;
    default:
      return assertNever(type);
  }
}

function has(config: Record<string, unknown>, field: string): boolean {
  const value = config[field];
  return isSecret(value) ? value.reveal() !== '' : !isUnset(value) && !(typeof value === 'string' && value.trim() === '');
}

function generates(config: Record<string, unknown>): boolean {
  return parseBoolText(config['allow_generate_key']) === true;
}

/** pin and credentials are required; an empty one (allowed without a reference) is still missing. */
function checkRequiredSecrets(doc: ManagedKeyDocument, diags: Diagnostics): void {
  const { type, config } = doc.data;
  for (const field of REQUIRED_FIELDS[type]) {
    if (isSecret(config[field]) && !has(config, field)) reportAt(diags, doc, ['config', field], 'must not be empty');
  }
}

function checkPkcs11(doc: ManagedKeyDocument, diags: Diagnostics): void {
  const config = doc.data.config;
  if (!has(config, 'key_label') && !has(config, 'key_id')) reportAt(diags, doc, ['config'], 'needs key_label or key_id (which key of the token to use)');
  if (!has(config, 'slot') && !has(config, 'token_label')) reportAt(diags, doc, ['config'], 'needs slot or token_label (which token to use)');
  if (!generates(config)) return;
  const text = parseMechanism(config['mechanism']);
  if (text === undefined) return; // reported as a value problem
  const mechanism = Number.parseInt(text.slice(2), 16);
  const family = mechanismFamily(mechanism);
  const at = ['config', 'allow_generate_key'];
  if (family === 'RSA' && !(parseWhole(config['key_bits']) ?? 0)) {
    reportAt(diags, doc, at, `needs key_bits (${KEY_BITS_TEXT}) to generate an RSA key for mechanism ${describeMechanism(mechanism)}`);
  } else if (family === 'EC' && parseCurve(config['curve']) === undefined) {
    reportAt(diags, doc, at, `needs curve (${CURVES_TEXT}) to generate an EC key for mechanism ${describeMechanism(mechanism)}`);
  } else if (family === undefined) {
    reportAt(diags, doc, ['config', 'mechanism'], `${text} is not a signing mechanism lockstep knows; key generation works only with supported mechanisms`, 'warning');
  }
}

function checkAwsKms(doc: ManagedKeyDocument, diags: Diagnostics): void {
  const config = doc.data.config;
  const keyType = parseUpper(config['key_type']);
  if (keyType === 'RSA' && !has(config, 'key_bits')) reportAt(diags, doc, ['config', 'key_type'], `RSA needs key_bits (${KEY_BITS_TEXT})`);
  if (keyType === 'ECDSA' && !has(config, 'curve')) reportAt(diags, doc, ['config', 'key_type'], `ECDSA needs curve (${CURVES_TEXT})`);
  const kmsKey = config['kms_key'];
  if (generates(config) && typeof kmsKey === 'string' && !isAlias(kmsKey)) {
    reportAt(diags, doc, ['config', 'kms_key'], 'must be an alias (alias/NAME) when allow_generate_key is true (a generated key gets that alias)');
  }
  checkPair(doc, diags, 'access_key', 'secret_key', "or neither, to use the server's environment or profile");
}

function checkKeyVault(doc: ManagedKeyDocument, diags: Diagnostics): void {
  const config = doc.data.config;
  if (generates(config) && !has(config, 'key_bits')) {
    reportAt(diags, doc, ['config', 'allow_generate_key'], `needs key_bits (${KEY_BITS_TEXT}) to generate a key`);
  }
  checkPair(doc, diags, 'client_id', 'client_secret', 'or neither, to use the managed identity');
}

/** Two fields given together or not at all. */
function checkPair(doc: ManagedKeyDocument, diags: Diagnostics, a: string, b: string, otherwise: string): void {
  const config = doc.data.config;
  const [hasA, hasB] = [has(config, a), has(config, b)];
  if (hasA && !hasB) reportAt(diags, doc, ['config', a], `needs ${b} (give both, ${otherwise})`);
  if (hasB && !hasA) reportAt(diags, doc, ['config', b], `needs ${a} (give both, ${otherwise})`);
}

/** `alias/NAME`, or the ARN of an alias. */
function isAlias(kmsKey: string): boolean {
  return kmsKey.startsWith('alias/') || /^arn:[^:]+:kms:[^:]*:[^:]*:alias\//.test(kmsKey);
}
