/**
 * Every field of a managed key (spec: "Managed key"): the generic ones and each backend's, with
 * its form and default. One table drives the schema-independent rules, the desired attrs, the
 * normalisation of live answers, the request body and export, so they cannot drift apart.
 */
import type { JsonValue } from '../../core/json.js';
import type { KeyType } from './types.js';

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

export interface KeyFieldSpec {
  name: string;
  /** `generic` fields belong to every type. */
  type: KeyType | 'generic';
  form: FieldForm;
  /** The comparable value when the field is absent (or empty). */
  default?: JsonValue;
  /** A reference only; write-only (reads back "redacted"), sent on every write, never shown. */
  secret?: true;
}

export const KEY_FIELD_SPECS: readonly KeyFieldSpec[] = [
  { name: 'allow_generate_key', type: 'generic', form: 'bool', default: false },
  { name: 'allow_replace_key', type: 'generic', form: 'bool', default: false },
  { name: 'allow_store_key', type: 'generic', form: 'bool', default: false },
  { name: 'any_mount', type: 'generic', form: 'bool', default: false },
  { name: 'usages', type: 'generic', form: 'usages', default: ['sign', 'verify'] },

  { name: 'library', type: 'pkcs11', form: 'text' },
  { name: 'key_label', type: 'pkcs11', form: 'text', default: '' },
  { name: 'key_id', type: 'pkcs11', form: 'text', default: '' },
  { name: 'mechanism', type: 'pkcs11', form: 'mechanism' },
  { name: 'pin', type: 'pkcs11', form: 'text', secret: true },
  { name: 'slot', type: 'pkcs11', form: 'decimal', default: '' },
  { name: 'token_label', type: 'pkcs11', form: 'text', default: '' },
  { name: 'curve', type: 'pkcs11', form: 'curve', default: '' },
  { name: 'key_bits', type: 'pkcs11', form: 'int', default: 0 },
  { name: 'force_rw_session', type: 'pkcs11', form: 'bool', default: false },
  { name: 'max_parallel', type: 'pkcs11', form: 'int', default: 1 },

  // access_key is an identifier, not a secret; with secret_key it may come from the server's environment.
  { name: 'access_key', type: 'provAkms', form: 'text', default: '' },
  { name: 'secret_key', type: 'provAkms', form: 'text', secret: true },
  { name: 'curve', type: 'provAkms', form: 'curve', default: '' },
  { name: 'endpoint', type: 'provAkms', form: 'text', default: '' },
  { name: 'key_bits', type: 'provAkms', form: 'int', default: 0 },
  { name: 'key_type', type: 'provAkms', form: 'upper' },
  { name: 'kms_key', type: 'provAkms', form: 'text' },
  // Unset: the server's PROVA_REGION / profile, else us-east-1 (which it reads back).
  { name: 'region', type: 'provAkms', form: 'text', default: 'us-east-1' },

  { name: 'tenant_id', type: 'provBkeyvault', form: 'text' },
  { name: 'client_id', type: 'provBkeyvault', form: 'text', default: '' },
  { name: 'client_secret', type: 'provBkeyvault', form: 'text', secret: true },
  { name: 'environment', type: 'provBkeyvault', form: 'upper', default: 'PROVBPUBLICCLOUD' },
  { name: 'vault_name', type: 'provBkeyvault', form: 'text' },
  { name: 'key_name', type: 'provBkeyvault', form: 'text' },
  // Unset: the public key-vault DNS suffix (which the server reads back).
  { name: 'resource', type: 'provBkeyvault', form: 'text', default: 'vault.azure.net' },
  { name: 'key_bits', type: 'provBkeyvault', form: 'int', default: 0 },
  { name: 'key_type', type: 'provBkeyvault', form: 'upper' },

  { name: 'credentials', type: 'provCckms', form: 'text', secret: true },
  { name: 'crypto_key', type: 'provCckms', form: 'text' },
  { name: 'crypto_key_version', type: 'provCckms', form: 'decimal', default: '1' },
  { name: 'key_ring', type: 'provCckms', form: 'text' },
  { name: 'project', type: 'provCckms', form: 'text' },
  { name: 'region', type: 'provCckms', form: 'text' },
  { name: 'algorithm', type: 'provCckms', form: 'upper' },
];

/** Fields that must be given for each type (conditional ones are rules: key_label or key_id, ...). */
export const REQUIRED_FIELDS: Readonly<Record<KeyType, readonly string[]>> = {
  pkcs11: ['library', 'mechanism', 'pin'],
  provAkms: ['key_type', 'kms_key'],
  provBkeyvault: ['tenant_id', 'vault_name', 'key_name', 'key_type'],
  provCckms: ['credentials', 'crypto_key', 'key_ring', 'project', 'region', 'algorithm'],
};

/** The fields a key of `type` may hold: the generic ones and its backend's. */
export function fieldsOf(type: KeyType): KeyFieldSpec[] {
  return KEY_FIELD_SPECS.filter((f) => f.type === 'generic' || f.type === type);
}

export function fieldSpec(type: KeyType, name: string): KeyFieldSpec | undefined {
  return fieldsOf(type).find((f) => f.name === name);
}

/** The compared fields of `type` (every field but the secrets). */
export function comparedFieldsOf(type: KeyType): KeyFieldSpec[] {
  return fieldsOf(type).filter((f) => !f.secret);
}

/** The secret fields of `type` (pin, secret_key, client_secret, credentials). */
export function secretFieldsOf(type: KeyType): KeyFieldSpec[] {
  return fieldsOf(type).filter((f) => f.secret);
}

/** Every secret field name of every type. */
export const SECRET_FIELD_NAMES: readonly string[] = [...new Set(KEY_FIELD_SPECS.filter((f) => f.secret).map((f) => f.name))];
