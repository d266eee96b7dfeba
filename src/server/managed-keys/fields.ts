/**
 * The fields of each managed-key type and how each is stored and read back:
 * - `string`: stored as given (numbers become their text), read back as a string, "" when unset
 *   unless the spec gives a default;
 * - `secret`: stored as given, read back as "redacted" when set and absent when not;
 * - `bool` ("boolean as text" in the spec): true/false or their text forms, read back as a JSON
 *   boolean;
 * - `int`: integer or numeric text, read back as a JSON number;
 * - `hexNumber` / `decimalNumber` (pkcs11 mechanism and slot): written as text (`0x1041`,
 *   `"2305"`), stored so, read back as JSON numbers as the docs' sample read shows
 *   (`"mechanism": 1`, `"slot": 1`; website/content/api-docs/system/managed-keys.mdx); "" when
 *   unset; a slot beyond 2^53 reads back as its digits (JSON numbers lose it there);
 * - `usages`: comma string or array, read back as a sorted, de-duplicated array.
 */
import type { KeyBackendType } from '../../adapters/kms/errors.js';

export type ManagedKeyType = KeyBackendType;

export const MANAGED_KEY_TYPES: readonly ManagedKeyType[] = ['pkcs11', 'provAkms', 'provBkeyvault', 'provCckms'];

export function isManagedKeyType(value: string): value is ManagedKeyType {
  return (MANAGED_KEY_TYPES as readonly string[]).includes(value);
}

export type FieldSpec =
  | { kind: 'string'; default?: string }
  | { kind: 'secret' }
  | { kind: 'bool'; default: boolean }
  | { kind: 'int'; default: number }
  | { kind: 'hexNumber' }
  | { kind: 'decimalNumber' }
  | { kind: 'usages'; default: string[] };

const text = (fallback?: string): FieldSpec => ({ kind: 'string', default: fallback });
const secret: FieldSpec = { kind: 'secret' };
const flag: FieldSpec = { kind: 'bool', default: false };

const GENERIC: Record<string, FieldSpec> = {
  allow_generate_key: flag,
  allow_replace_key: flag,
  allow_store_key: flag,
  any_mount: flag,
  usages: { kind: 'usages', default: ['sign', 'verify'] },
};

const BACKEND: Record<ManagedKeyType, Record<string, FieldSpec>> = {
  pkcs11: {
    library: text(),
    key_label: text(),
    key_id: text(),
    mechanism: { kind: 'hexNumber' },
    pin: secret,
    slot: { kind: 'decimalNumber' },
    token_label: text(),
    curve: text(),
    key_bits: { kind: 'int', default: 0 },
    force_rw_session: flag,
    max_parallel: { kind: 'int', default: 1 },
  },
  provAkms: {
    access_key: text(),
    secret_key: secret,
    curve: text(),
    endpoint: text(),
    key_bits: text(),
    key_type: text(),
    kms_key: text(),
    region: text('us-east-1'),
  },
  provBkeyvault: {
    tenant_id: text(),
    client_id: text(),
    client_secret: secret,
    environment: text('PROVBPUBLICCLOUD'),
    vault_name: text(),
    key_name: text(),
    resource: text('vault.azure.net'),
    key_bits: text(),
    key_type: text(),
  },
  provCckms: {
    credentials: secret,
    crypto_key: text(),
    crypto_key_version: text('1'),
    key_ring: text(),
    project: text(),
    region: text(),
    algorithm: text(),
  },
};

/** Every configuration field of a type: the generic ones and the backend's. */
export function fieldsOf(type: ManagedKeyType): Record<string, FieldSpec> {
  return { ...GENERIC, ...BACKEND[type] };
}
