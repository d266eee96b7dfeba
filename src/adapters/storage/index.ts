export type { ObjectInfo, ObjectStore, OpenOptions, SnapshotStorageConfig, StorageType } from './types.js';
export { isStorageType, SECRET_FIELDS, STORAGE_TYPES } from './types.js';
export { STORAGE_FIELD_SPECS, storageFieldsOf, type StorageFieldKind, type StorageFieldSpec } from './fields.js';
export { StorageError } from './errors.js';
export { secretValuesOf } from './config.js';
export { openObjectStore } from './open.js';
export { LocalStore } from './local.js';
export { S3Store } from './s3.js';
export { BlobStore } from './blob.js';
export { GCS_RESUMABLE_THRESHOLD } from './gcs.js';
export {
  DEFAULT_FILE_PREFIX,
  DEFAULT_RETAIN,
  joinPrefix,
  needsTrailingSlash,
  probeObjectName,
  retentionVictims,
  snapshotListPrefix,
  snapshotObjectName,
  snapshotObjects,
  snapshotTimestamp,
  usedSpace,
} from './naming.js';
