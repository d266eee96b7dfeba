import type { Diagnostics } from '../../core/diagnostics.js';
import { assertNever } from '../../core/plan.js';
import { isSecret } from '../../core/secret.js';
import { AWS_KEY_TYPES } from '../../adapters/kms/aws/settings.js';
import { AZURE_ENVIRONMENTS, AZURE_KEY_TYPES } from '../../adapters/kms/azure/settings.js';
import { RSA_KEY_BITS } from '../../adapters/kms/config.js';
import { SPEC_CURVE_NAMES } from '../../adapters/kms/curves.js';
import { GCP_ALGORITHMS } from '../../adapters/kms/gcp/algorithms.js';
import { HASH_ALGORITHMS } from '../../adapters/kms/hash.js';
import { USAGES } from '../../adapters/kms/policy.js';
import { isUnset } from './attrs.js';
import { fieldSpec, type KeyFieldSpec } from './fields.js';
import { reportAt } from './report.js';
import { textProblems } from './syntax.js';
import type { KeyType, ManagedKeyDocument } from './types.js';
import { parseBoolText, parseCurve, parseDecimal, parseMechanism, parseUpper, parseWhole, usageItems } from './values.js';

/** Same wording as the schema's x-message, so a value is described the same way at either stage. */
const MESSAGES = {
  bool: 'must be true or false',
  positive: 'must be a whole number (1 or more)',
  slot: 'must be a slot number in decimal (not hexadecimal)',
  keyBits: 'must be 2048, 3072 or 4096',
  curve: `must be one of ${SPEC_CURVE_NAMES.join(', ')}`,
  mechanism: 'must be hexadecimal prefixed by 0x (e.g. 0x1041)',
  usages: 'must be a list of usages or a comma-separated string',
  hashAlgorithm: `must be one of ${HASH_ALGORITHMS.join(', ')}`,
} as const;

/**
 * Checks each config value once references are resolved (the schema saw `${env:X}` and could
 * not), and the values the schema leaves to rules: usage names and non-empty required text.
 * Secret values are only checked for being non-empty, never quoted.
 */
export function checkConfigValues(doc: ManagedKeyDocument, diags: Diagnostics): void {
  const { type, config } = doc.data;
  for (const [name, value] of Object.entries(config)) {
    const spec = fieldSpec(type, name);
    if (!spec) continue;
    for (const problem of valueProblems(type, spec, value)) reportAt(diags, doc, ['config', name], problem);
  }
  checkVerify(doc, diags);
}

function valueProblems(type: KeyType, spec: KeyFieldSpec, value: unknown): string[] {
  if (spec.secret || isSecret(value)) return [];
  if (spec.form === 'text' || spec.form === 'upper') {
    if (typeof value === 'string' && value.trim() === '' && spec.default === undefined) return ['must not be empty'];
  }
  // An empty usages list would silently mean the default (sign,verify): say so instead.
  if (spec.form === 'usages') return usagesProblems(value);
  if (isUnset(value) && spec.default !== undefined) return [];
  switch (spec.form) {
    case 'bool':
      return parseBoolText(value) === undefined ? [MESSAGES.bool] : [];
    case 'text':
      return typeof value === 'string' ? textProblems(type, spec.name, value) : [];
    case 'upper':
      return enumProblems(type, spec.name, parseUpper(value));
    case 'curve':
      return parseCurve(value) === undefined ? [MESSAGES.curve] : [];
    case 'mechanism':
      // A manifest writes the text the service takes (0x...); the number form is only how it reads back.
      return typeof value !== 'string' || parseMechanism(value) === undefined ? [MESSAGES.mechanism] : [];
    case 'decimal':
      if (spec.name === 'slot') return parseDecimal(value) === undefined ? [MESSAGES.slot] : [];
      return (parseWhole(value) ?? 0) < 1 ? [MESSAGES.positive] : [];
    case 'int':
      if (spec.name === 'key_bits') return (RSA_KEY_BITS as readonly number[]).includes(parseWhole(value) ?? -1) ? [] : [MESSAGES.keyBits];
      return (parseWhole(value) ?? 0) < 1 ? [MESSAGES.positive] : [];
    default:
      return assertNever(spec.form);
  }
}

function usagesProblems(value: unknown): string[] {
  const items = usageItems(value);
  if (!items) return [MESSAGES.usages];
  if (items.length === 0) return ['must name at least one usage'];
  return items
    .filter((u) => !(USAGES as readonly string[]).includes(u))
    .map((u) => `"${u}" is not a usage (one of ${USAGES.join(', ')})`);
}

/** The enumerations of `upper` fields (compared case-insensitively). */
const ENUMS: Readonly<Record<string, { values: readonly string[]; message: string }>> = {
  'provAkms.key_type': { values: AWS_KEY_TYPES, message: 'must be RSA or ECDSA (any case)' },
  'provBkeyvault.key_type': { values: AZURE_KEY_TYPES, message: 'must be RSA-HSM (the only supported value)' },
  'provBkeyvault.environment': { values: AZURE_ENVIRONMENTS, message: `must be one of ${AZURE_ENVIRONMENTS.join(', ')}` },
  'provCckms.algorithm': { values: GCP_ALGORITHMS, message: `must be one of ${GCP_ALGORITHMS.join(', ')}` },
};

function enumProblems(type: KeyType, field: string, upper: string | undefined): string[] {
  const e = ENUMS[`${type}.${field}`];
  if (!e) return [];
  return upper !== undefined && e.values.includes(upper) ? [] : [e.message];
}

function checkVerify(doc: ManagedKeyDocument, diags: Diagnostics): void {
  const verify = doc.data.verify;
  if (verify === undefined || verify === false) return;
  const usages = usageItems(doc.data.config['usages']);
  if (usages && usages.length > 0 && !usages.includes('sign')) {
    reportAt(diags, doc, ['verify'], 'needs "sign" in config.usages (test/sign signs with the key)');
  }
  if (verify === true) return;
  const hash = verify.hash_algorithm;
  if (hash !== undefined && !(HASH_ALGORITHMS as readonly string[]).includes(hash)) {
    reportAt(diags, doc, ['verify', 'hash_algorithm'], MESSAGES.hashAlgorithm);
  }
  if (verify.use_pss !== undefined && parseBoolText(verify.use_pss) === undefined) reportAt(diags, doc, ['verify', 'use_pss'], MESSAGES.bool);
}
