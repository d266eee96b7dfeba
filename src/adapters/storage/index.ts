export type { Flag, ObjectInfo, ObjectStore, OpenOptions, SnapshotStorageConfig, StorageType } from './types.js';
export { SECRET_FIELDS } from './types.js';
export { StorageError, type StorageErrorKind } from './errors.js';
export { secretValuesOf } from './config.js';
export { openObjectStore } from './open.js';
export { LocalStore } from './local.js';
export { S3Store } from './s3.js';
export { BlobStore } from './blob.js';
export { GcsStore, GCS_RESUMABLE_THRESHOLD } from './gcs.js';
export {
  DEFAULT_FILE_PREFIX,
  joinPrefix,
  probeObjectName,
  retentionVictims,
  snapshotListPrefix,
  snapshotObjectName,
  snapshotObjects,
  snapshotTimestamp,
  usedSpace,
  type SnapshotObject,
} from './naming.js';
