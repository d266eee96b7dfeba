/**
 * Every field of a managed key (spec: "Managed key"): the generic ones and each backend's, with
 * its form and default. One table drives the schema-independent rules, the desired attrs, the
 * normalisation of live answers, the request body and export, so they cannot drift apart.
 */
import { comparedOf, fieldsOfVariant, secretOf, type FieldSpec } from '../field-spec.js';
import { KEY_TYPES, type KeyType } from './types.js';

/** How a value is written in a manifest and compared with the server's answer. */
export type FieldForm =
  /** YAML boolean or its text forms ("true", "False", "1", ...) → boolean. */
  | 'bool'
  /** Comma-delimited string or list → sorted, de-duplicated, lower-cased list. */
  | 'usages'
  /** Text kept as written. */
  | 'text'
  /** Case-insensitive name (key_type, environment, algorithm) → upper case. */
  | 'upper'
  /** P256 / P-256 / p256 ... → P256. */
  | 'curve'
  /** Hexadecimal with 0x → `0x` + lower-case digits without leading zeros. */
  | 'mechanism'
  /** A decimal number kept as text (slot, crypto_key_version) → its digits without leading zeros. */
  | 'decimal'
  /** A whole number, or its digits as text → number. */
  | 'int';

/** A managed key's field: its variant is the backend type; secrets are sent on every write. */
export type KeyFieldSpec = FieldSpec<KeyType, FieldForm>;

const KEY_FIELD_SPECS: readonly KeyFieldSpec[] = [
  { name: 'allow_generate_key', variant: 'common', form: 'bool', default: false },
  { name: 'allow_replace_key', variant: 'common', form: 'bool', default: false },
  { name: 'allow_store_key', variant: 'common', form: 'bool', default: false },
  { name: 'any_mount', variant: 'common', form: 'bool', default: false },
  { name: 'usages', variant: 'common', form: 'usages', default: ['sign', 'verify'] },

  { name: 'library', variant: 'pkcs11', required: true, form: 'text' },
  { name: 'key_label', variant: 'pkcs11', form: 'text', default: '' },
  { name: 'key_id', variant: 'pkcs11', form: 'text', default: '' },
  { name: 'mechanism', variant: 'pkcs11', required: true, form: 'mechanism' },
  { name: 'pin', variant: 'pkcs11', required: true, form: 'text', secret: true },
  { name: 'slot', variant: 'pkcs11', form: 'decimal', default: '' },
  { name: 'token_label', variant: 'pkcs11', form: 'text', default: '' },
  { name: 'curve', variant: 'pkcs11', form: 'curve', default: '' },
  { name: 'key_bits', variant: 'pkcs11', form: 'int', default: 0 },
  { name: 'force_rw_session', variant: 'pkcs11', form: 'bool', default: false },
  { name: 'max_parallel', variant: 'pkcs11', form: 'int', default: 1 },

  // access_key is an identifier, not a secret; with secret_key it may come from the server's environment.
  { name: 'access_key', variant: 'provAkms', form: 'text', default: '' },
  { name: 'secret_key', variant: 'provAkms', form: 'text', secret: true },
  { name: 'curve', variant: 'provAkms', form: 'curve', default: '' },
  { name: 'endpoint', variant: 'provAkms', form: 'text', default: '' },
  { name: 'key_bits', variant: 'provAkms', form: 'int', default: 0 },
  { name: 'key_type', variant: 'provAkms', required: true, form: 'upper' },
  { name: 'kms_key', variant: 'provAkms', required: true, form: 'text' },
  // Unset: the server's PROVA_REGION / profile, else us-east-1 (which it reads back).
  { name: 'region', variant: 'provAkms', form: 'text', default: 'us-east-1' },

  { name: 'tenant_id', variant: 'provBkeyvault', required: true, form: 'text' },
  { name: 'client_id', variant: 'provBkeyvault', form: 'text', default: '' },
  { name: 'client_secret', variant: 'provBkeyvault', form: 'text', secret: true },
  { name: 'environment', variant: 'provBkeyvault', form: 'upper', default: 'PROVBPUBLICCLOUD' },
  { name: 'vault_name', variant: 'provBkeyvault', required: true, form: 'text' },
  { name: 'key_name', variant: 'provBkeyvault', required: true, form: 'text' },
  // Unset: the public key-vault DNS suffix (which the server reads back).
  { name: 'resource', variant: 'provBkeyvault', form: 'text', default: 'vault.azure.net' },
  { name: 'key_bits', variant: 'provBkeyvault', form: 'int', default: 0 },
  { name: 'key_type', variant: 'provBkeyvault', required: true, form: 'upper' },

  { name: 'credentials', variant: 'provCckms', required: true, form: 'text', secret: true },
  { name: 'crypto_key', variant: 'provCckms', required: true, form: 'text' },
  { name: 'crypto_key_version', variant: 'provCckms', form: 'decimal', default: '1' },
  { name: 'key_ring', variant: 'provCckms', required: true, form: 'text' },
  { name: 'project', variant: 'provCckms', required: true, form: 'text' },
  { name: 'region', variant: 'provCckms', required: true, form: 'text' },
  { name: 'algorithm', variant: 'provCckms', required: true, form: 'upper' },
];

/** Fields that must be given for each type, in table order (conditional ones are rules: key_label or key_id, ...). */
export const REQUIRED_FIELDS: Readonly<Record<KeyType, readonly string[]>> = Object.fromEntries(
  KEY_TYPES.map((type) => [type, fieldsOf(type).filter((f) => f.required).map((f) => f.name)]),
) as unknown as Record<KeyType, readonly string[]>;

/** The fields a key of `type` may hold: the generic ones and its backend's. */
export function fieldsOf(type: KeyType): KeyFieldSpec[] {
  return fieldsOfVariant(KEY_FIELD_SPECS, type);
}

export function fieldSpec(type: KeyType, name: string): KeyFieldSpec | undefined {
  return fieldsOf(type).find((f) => f.name === name);
}

/** The compared fields of `type` (every field but the secrets). */
export function comparedFieldsOf(type: KeyType): KeyFieldSpec[] {
  return comparedOf(fieldsOf(type));
}

/** The secret fields of `type` (pin, secret_key, client_secret, credentials). */
export function secretFieldsOf(type: KeyType): KeyFieldSpec[] {
  return secretOf(fieldsOf(type));
}

/** Every secret field name of every type. */
export const SECRET_FIELD_NAMES: readonly string[] = [...new Set(KEY_FIELD_SPECS.filter((f) => f.secret).map((f) => f.name))];
