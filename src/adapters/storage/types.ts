/**
 * The object-store view of a snapshot destination. Names are full object keys: for cloud
 * types the key inside the bucket/container (path_prefix included), for `local` a filesystem
 * path inside the configured directory. `snapshotObjectName` builds them.
 */
export interface ObjectInfo {
  name: string;
  size: number;
  modified: Date;
}

export interface ObjectStore {
  /** Writes the whole object; readers never see a partial object. */
  put(name: string, data: Buffer): Promise<void>;
  /** Every object whose name starts with `prefix` (recursively, in no particular order). */
  list(prefix: string): Promise<ObjectInfo[]>;
  /** Fails with a StorageError of kind `not-found` when the object does not exist. */
  get(name: string): Promise<Buffer>;
  /** Idempotent: removing a missing object succeeds. */
  remove(name: string): Promise<void>;
  /** Secret-free description, e.g. `s3://bucket/prefix (endpoint http://127.0.0.1:9000)`. */
  describe(): string;
  /** Secret-free URL of one object (for `last_snapshot_url`), e.g. `s3://bucket/key`. */
  urlOf(name: string): string;
}

/** The spec's `storage_type` values (the server's rules and the reconciler's share this list). */
export const STORAGE_TYPES = ['local', 'provA-s3', 'provB-blob', 'provC-gcs'] as const;
export type StorageType = (typeof STORAGE_TYPES)[number];

export function isStorageType(value: unknown): value is StorageType {
  return typeof value === 'string' && (STORAGE_TYPES as readonly string[]).includes(value);
}

/** A boolean as the server may store it: a JSON boolean or its text. */
export type Flag = boolean | string;

/**
 * The snapshot configuration fields of the spec, as the server stores them (extra fields
 * such as name, interval and retain are allowed and ignored here).
 */
export interface SnapshotStorageConfig {
  /** A StorageType as the server stores it; other text is refused when opening. */
  storage_type: string;
  path_prefix: string;
  file_prefix?: string;
  /** bytes */
  local_max_space?: number | string;

  provA_s3_bucket?: string;
  provA_s3_region?: string;
  provA_access_key_id?: string;
  provA_secret_access_key?: string;
  provA_session_token?: string;
  provA_s3_endpoint?: string;
  provA_s3_disable_tls?: Flag;
  provA_s3_force_path_style?: Flag;
  provA_s3_enable_kms?: Flag;
  provA_s3_server_side_encryption?: Flag;
  provA_s3_kms_key?: string;

  provC_gcs_bucket?: string;
  provC_service_account_key?: string;
  provC_endpoint?: string;
  provC_disable_tls?: Flag;

  provB_container_name?: string;
  provB_account_name?: string;
  provB_account_key?: string;
  provB_blob_environment?: string;
  provB_endpoint?: string;
}

/** The fields whose values are secrets: never in messages, descriptions or logs. */
export const SECRET_FIELDS = [
  'provA_secret_access_key',
  'provA_session_token',
  'provB_account_key',
  'provC_service_account_key',
] as const satisfies ReadonlyArray<keyof SnapshotStorageConfig>;

export interface OpenOptions {
  /** Total tries per request, including the first (SDK default when omitted). */
  attempts?: number;
  /** Per-request timeout in milliseconds (SDK default when omitted). */
  timeoutMs?: number;
}
