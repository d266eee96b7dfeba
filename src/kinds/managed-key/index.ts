import type { KindModule } from '../kind.js';
import { desiredManagedKeys } from './desired.js';
import { exportManagedKeys } from './export.js';
import { planManagedKeys } from './plan.js';
import { readManagedKeys } from './read.js';
import { checkManagedKeyValues, validateManagedKeys } from './rules.js';
import { managedKeySecretPaths } from './secrets.js';
import { MANAGED_KEY, MANAGED_KEY_KIND, MANAGED_KEY_SCHEMA_FILE } from './types.js';
import { applyManagedKeyChange } from './write.js';

/**
 * Managed keys: named configurations of keys held in an HSM (pkcs11) or a cloud KMS, per
 * namespace. Planned by the generic diff plus a hook for what it cannot know (a type change is
 * a destructive replace; deletes are destructive and refused while a mount lists the key).
 */
export const managedKeyKind: KindModule = {
  kind: MANAGED_KEY_KIND,
  resourceTypes: [MANAGED_KEY],
  schemaFile: MANAGED_KEY_SCHEMA_FILE,
  feature: { name: 'managed keys', probe: { method: 'LIST', path: 'sys/managed-keys/pkcs11' } },
  secretPaths: managedKeySecretPaths,
  validate: validateManagedKeys,
  checkValues: checkManagedKeyValues,
  desired: desiredManagedKeys,
  read: readManagedKeys,
  plan: planManagedKeys,
  apply: applyManagedKeyChange,
  export: exportManagedKeys,
  // Loaded on use: the HSM and KMS adapters are only needed by `check`.
  check: async (desired, opts) => (await import('./check.js')).checkManagedKeys(desired, opts),
};
