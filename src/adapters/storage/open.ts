import { BlobStore } from './blob.js';
import { invalidConfig } from './errors.js';
import { GcsStore } from './gcs.js';
import { LocalStore } from './local.js';
import { S3Store } from './s3.js';
import type { ObjectStore, OpenOptions, SnapshotStorageConfig } from './types.js';

/**
 * The object store of a snapshot configuration. Nothing is contacted here: an unreachable or
 * unwritable destination shows on the first operation (a local directory is created by the
 * first put). Invalid settings throw a StorageError of kind `invalid-config`.
 */
export function openObjectStore(config: SnapshotStorageConfig, options: OpenOptions = {}): ObjectStore {
  switch (config.storage_type) {
    case 'local':
      if (!config.path_prefix) throw invalidConfig('local needs path_prefix (the directory)');
      return new LocalStore(config.path_prefix);
    case 'provA-s3':
      return new S3Store(config, options);
    case 'provB-blob':
      return new BlobStore(config, options);
    case 'provC-gcs':
      return new GcsStore(config, options);
    default:
      throw invalidConfig(
        `unknown storage_type ${JSON.stringify(config.storage_type)} (expected local, provA-s3, provB-blob or provC-gcs)`,
      );
  }
}
