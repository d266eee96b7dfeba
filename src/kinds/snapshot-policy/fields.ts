/**
 * Every field of an automated-snapshot configuration (spec: "Automated snapshot configuration"),
 * with the storage type it belongs to, its form and default. One table drives the rules, the
 * desired attrs, the normalisation of live answers, the request body and export, so they
 * cannot drift apart.
 */
export const STORAGE_TYPES = ['local', 'provA-s3', 'provB-blob', 'provC-gcs'] as const;
export type StorageType = (typeof STORAGE_TYPES)[number];

export const DEFAULT_FILE_PREFIX = 'vault-snapshot';
export const DEFAULT_RETAIN = 1;

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

export interface SnapshotFieldSpec {
  name: string;
  /** `common` fields apply to every storage type. */
  storage: StorageType | 'common';
  form: FieldForm;
  /** Required (for its storage type). */
  required?: true;
  /** Comparable default filled in when absent ('' / false for optional fields). */
  default?: string | number | boolean;
  /** A credential: a reference only, write-only (reads back "redacted"), never compared or shown. */
  secret?: true;
}

export const SNAPSHOT_FIELD_SPECS: readonly SnapshotFieldSpec[] = [
  { name: 'interval', storage: 'common', form: 'duration', required: true },
  { name: 'retain', storage: 'common', form: 'count', default: DEFAULT_RETAIN },
  { name: 'path_prefix', storage: 'common', form: 'string', required: true },
  { name: 'file_prefix', storage: 'common', form: 'string', default: DEFAULT_FILE_PREFIX },
  { name: 'storage_type', storage: 'common', form: 'string', required: true },

  { name: 'local_max_space', storage: 'local', form: 'bytes', required: true },

  { name: 'provA_s3_bucket', storage: 'provA-s3', form: 'string', required: true },
  { name: 'provA_s3_region', storage: 'provA-s3', form: 'string', required: true },
  { name: 'provA_access_key_id', storage: 'provA-s3', form: 'string', default: '' },
  { name: 'provA_secret_access_key', storage: 'provA-s3', form: 'string', secret: true },
  { name: 'provA_session_token', storage: 'provA-s3', form: 'string', secret: true },
  { name: 'provA_s3_endpoint', storage: 'provA-s3', form: 'string', default: '' },
  { name: 'provA_s3_disable_tls', storage: 'provA-s3', form: 'bool', default: false },
  { name: 'provA_s3_force_path_style', storage: 'provA-s3', form: 'bool', default: false },
  { name: 'provA_s3_enable_kms', storage: 'provA-s3', form: 'bool', default: false },
  { name: 'provA_s3_server_side_encryption', storage: 'provA-s3', form: 'bool', default: false },
  { name: 'provA_s3_kms_key', storage: 'provA-s3', form: 'string', default: '' },

  { name: 'provC_gcs_bucket', storage: 'provC-gcs', form: 'string', required: true },
  { name: 'provC_service_account_key', storage: 'provC-gcs', form: 'string', secret: true },
  { name: 'provC_endpoint', storage: 'provC-gcs', form: 'string', default: '' },
  { name: 'provC_disable_tls', storage: 'provC-gcs', form: 'bool', default: false },

  { name: 'provB_container_name', storage: 'provB-blob', form: 'string', required: true },
  // The spec lets only provA-s3 and provC-gcs fall back to the provider's own authentication.
  { name: 'provB_account_name', storage: 'provB-blob', form: 'string', required: true },
  { name: 'provB_account_key', storage: 'provB-blob', form: 'string', secret: true, required: true },
  { name: 'provB_blob_environment', storage: 'provB-blob', form: 'string', default: '' },
  { name: 'provB_endpoint', storage: 'provB-blob', form: 'string', default: '' },
];

export const SNAPSHOT_CONFIG_FIELDS: readonly string[] = SNAPSHOT_FIELD_SPECS.map((f) => f.name);

/** Credential fields (provA_secret_access_key, provA_session_token, provB_account_key, provC_service_account_key). */
export const SNAPSHOT_SECRET_FIELDS: readonly string[] = SNAPSHOT_FIELD_SPECS.filter((f) => f.secret).map((f) => f.name);

export function snapshotFieldSpec(name: string): SnapshotFieldSpec | undefined {
  return SNAPSHOT_FIELD_SPECS.find((f) => f.name === name);
}

export function isStorageType(value: unknown): value is StorageType {
  return typeof value === 'string' && (STORAGE_TYPES as readonly string[]).includes(value);
}

/** The fields a configuration of `type` may hold: the common ones and its own. */
export function fieldsOf(type: StorageType): SnapshotFieldSpec[] {
  return SNAPSHOT_FIELD_SPECS.filter((f) => f.storage === 'common' || f.storage === type);
}

/** The compared fields of `type` (every field but the credentials). */
export function comparedFieldsOf(type: StorageType): SnapshotFieldSpec[] {
  return fieldsOf(type).filter((f) => !f.secret);
}

/** The credential fields of `type`. */
export function secretFieldsOf(type: StorageType): SnapshotFieldSpec[] {
  return fieldsOf(type).filter((f) => f.secret);
}

/** Types whose path_prefix must end in `/` (a bucket or container prefix). */
export function needsTrailingSlash(type: StorageType): boolean {
  return type === 'provB-blob' || type === 'provC-gcs';
}
