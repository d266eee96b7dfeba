import type { ValuePath } from '../../load/document.js';
import { SNAPSHOT_SECRET_FIELDS } from './fields.js';

/**
 * Paths of the credential fields present in a raw SnapshotPolicy document (whatever its
 * storage_type: a credential in the wrong type is still never echoed, and is refused by the rules).
 */
export function snapshotSecretPaths(value: unknown): ValuePath[] {
  const config = (value as { config?: unknown } | null)?.config;
  if (config === null || typeof config !== 'object' || Array.isArray(config)) return [];
  return SNAPSHOT_SECRET_FIELDS.filter((f) => f in config).map((f) => ['config', f]);
}
