/**
 * Every field of an automated-snapshot configuration (spec: "Automated snapshot configuration"),
 * with the storage type it belongs to, its form and default. One table drives the rules, the
 * desired attrs, the normalisation of live answers, the request body and export, so they
 * cannot drift apart.
 */
// The specific modules, not the storage index: that one loads every cloud SDK.
import { DEFAULT_FILE_PREFIX, DEFAULT_RETAIN } from '../../adapters/storage/naming.js';
import { STORAGE_FIELD_SPECS, type StorageFieldSpec } from '../../adapters/storage/fields.js';
import { isStorageType, STORAGE_TYPES, type StorageType } from '../../adapters/storage/types.js';
import { comparedOf, fieldsOfVariant, secretOf, type FieldSpec } from '../field-spec.js';

export { isStorageType, STORAGE_TYPES, type StorageType };

/** How a value is written in a manifest and read back from the server. */
export type FieldForm =
  /** Whole seconds or a duration string → integer seconds. */
  | 'duration'
  /** Whole number (or its digits) → integer. */
  | 'count'
  /** Bytes as a number, or a size such as `10GiB` / `500MB` → integer bytes. */
  | 'bytes'
  /** YAML boolean or "true"/"false" → boolean. */
  | 'bool'
  /** Text kept as written. */
  | 'string';

/** A snapshot configuration's field: its variant is the storage type; optional ones default to ''/false. */
export type SnapshotFieldSpec = FieldSpec<StorageType, FieldForm>;

export const SNAPSHOT_FIELD_SPECS: readonly SnapshotFieldSpec[] = [
  { name: 'interval', variant: 'common', form: 'duration', required: true },
  { name: 'retain', variant: 'common', form: 'count', default: DEFAULT_RETAIN },
  { name: 'path_prefix', variant: 'common', form: 'string', required: true },
  { name: 'file_prefix', variant: 'common', form: 'string', default: DEFAULT_FILE_PREFIX },
  { name: 'storage_type', variant: 'common', form: 'string', required: true },
  ...STORAGE_FIELD_SPECS.map(asSnapshotFieldSpec),
];

/** A storage field as this table describes it: optional fields compare as ''/false when absent. */
function asSnapshotFieldSpec(f: StorageFieldSpec): SnapshotFieldSpec {
  const form: FieldForm = f.kind === 'bytes' || f.kind === 'bool' ? f.kind : 'string';
  const spec: SnapshotFieldSpec = { name: f.name, variant: f.storage, form };
  if (f.required) spec.required = true;
  if (f.kind === 'secret') spec.secret = true;
  else if (!f.required) spec.default = f.kind === 'bool' ? false : '';
  return spec;
}

export const SNAPSHOT_CONFIG_FIELDS: readonly string[] = SNAPSHOT_FIELD_SPECS.map((f) => f.name);

/** Credential fields (provA_secret_access_key, provA_session_token, provB_account_key, provC_service_account_key). */
export const SNAPSHOT_SECRET_FIELDS: readonly string[] = SNAPSHOT_FIELD_SPECS.filter((f) => f.secret).map((f) => f.name);

export function snapshotFieldSpec(name: string): SnapshotFieldSpec | undefined {
  return SNAPSHOT_FIELD_SPECS.find((f) => f.name === name);
}

/** The fields a configuration of `type` may hold: the common ones and its own. */
export function fieldsOf(type: StorageType): SnapshotFieldSpec[] {
  return fieldsOfVariant(SNAPSHOT_FIELD_SPECS, type);
}

/** The compared fields of `type` (every field but the credentials). */
export function comparedFieldsOf(type: StorageType): SnapshotFieldSpec[] {
  return comparedOf(fieldsOf(type));
}

/** The credential fields of `type`. */
export function secretFieldsOf(type: StorageType): SnapshotFieldSpec[] {
  return secretOf(fieldsOf(type));
}
