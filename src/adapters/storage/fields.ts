/**
 * The storage fields of a snapshot configuration (spec: "Automated snapshot configuration"),
 * per storage type, in the spec's order. The server's rules and read-back and the reconciler's
 * field table are built from this one list, so they cannot drift apart.
 */
import type { SnapshotStorageConfig, StorageType } from './types.js';

/** `string` and `secret` are text (a secret is a credential: write-only, never shown); `bytes` a size. */
export type StorageFieldKind = 'string' | 'secret' | 'bool' | 'bytes';

export interface StorageFieldSpec {
  name: keyof SnapshotStorageConfig;
  storage: StorageType;
  kind: StorageFieldKind;
  required?: true;
}

export const STORAGE_FIELD_SPECS: readonly StorageFieldSpec[] = [
  { name: 'local_max_space', storage: 'local', kind: 'bytes', required: true },

  { name: 'provA_s3_bucket', storage: 'provA-s3', kind: 'string', required: true },
  { name: 'provA_s3_region', storage: 'provA-s3', kind: 'string', required: true },
  { name: 'provA_access_key_id', storage: 'provA-s3', kind: 'string' },
  { name: 'provA_secret_access_key', storage: 'provA-s3', kind: 'secret' },
  { name: 'provA_session_token', storage: 'provA-s3', kind: 'secret' },
  { name: 'provA_s3_endpoint', storage: 'provA-s3', kind: 'string' },
  { name: 'provA_s3_disable_tls', storage: 'provA-s3', kind: 'bool' },
  { name: 'provA_s3_force_path_style', storage: 'provA-s3', kind: 'bool' },
  { name: 'provA_s3_enable_kms', storage: 'provA-s3', kind: 'bool' },
  { name: 'provA_s3_server_side_encryption', storage: 'provA-s3', kind: 'bool' },
  { name: 'provA_s3_kms_key', storage: 'provA-s3', kind: 'string' },

  { name: 'provC_gcs_bucket', storage: 'provC-gcs', kind: 'string', required: true },
  { name: 'provC_service_account_key', storage: 'provC-gcs', kind: 'secret' },
  { name: 'provC_endpoint', storage: 'provC-gcs', kind: 'string' },
  { name: 'provC_disable_tls', storage: 'provC-gcs', kind: 'bool' },

  { name: 'provB_container_name', storage: 'provB-blob', kind: 'string', required: true },
  // Only provA-s3 and provC-gcs may leave credentials to the provider's own discovery.
  { name: 'provB_account_name', storage: 'provB-blob', kind: 'string', required: true },
  { name: 'provB_account_key', storage: 'provB-blob', kind: 'secret', required: true },
  { name: 'provB_blob_environment', storage: 'provB-blob', kind: 'string' },
  { name: 'provB_endpoint', storage: 'provB-blob', kind: 'string' },
];

/** The storage fields of `type`, in order. */
export function storageFieldsOf(type: StorageType): StorageFieldSpec[] {
  return STORAGE_FIELD_SPECS.filter((f) => f.storage === type);
}
