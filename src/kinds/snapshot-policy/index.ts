import type { KindModule } from '../kind.js';
import { exportSnapshotPolicies } from './export.js';
import { desiredSnapshotPolicies } from './normalise.js';
import { planSnapshotPolicies } from './plan.js';
import { readSnapshotPolicies } from './read.js';
import { checkSnapshotValues, validateSnapshotPolicies } from './rules.js';
import { snapshotSecretPaths } from './secrets.js';
import { SNAPSHOT_CONFIG, SNAPSHOT_POLICY_KIND, SNAPSHOT_POLICY_SCHEMA_FILE } from './types.js';
import { applySnapshotChange } from './write.js';
import { SNAPSHOT_AUTO_PATH } from './addresses.js';

/** Automated Raft snapshot configurations (sys/storage/raft/snapshot-auto/config/<name>). */
export const snapshotPolicyKind: KindModule = {
  kind: SNAPSHOT_POLICY_KIND,
  resourceTypes: [SNAPSHOT_CONFIG],
  schemaFile: SNAPSHOT_POLICY_SCHEMA_FILE,
  feature: { name: 'automated Raft snapshots', probe: { method: 'LIST', path: `${SNAPSHOT_AUTO_PATH}/config` } },
  secretPaths: snapshotSecretPaths,
  validate: validateSnapshotPolicies,
  checkValues: checkSnapshotValues,
  desired: desiredSnapshotPolicies,
  read: readSnapshotPolicies,
  plan: planSnapshotPolicies,
  apply: applySnapshotChange,
  export: exportSnapshotPolicies,
  // Loaded on use: the storage SDKs behind the destination check take seconds to import.
  check: async (desired, opts, clients) => (await import('./check.js')).checkSnapshotPolicies(desired, opts, clients),
};
