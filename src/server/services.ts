import type { KeyBackendOptions } from '../adapters/kms/types.js';
import type { TokenStore } from './auth/token-store.js';
import type { DrReplication } from './replication/dr-replication.js';
import type { SnapshotScheduler } from './snapshots/scheduler.js';
import type { KvStore } from './storage/kv-store.js';
import type { MountTable } from './sys/mount-table.js';
import type { Clock } from './util/clock.js';
import type { Release } from '../values/index.js';

/** What request handlers of one cluster work with. */
export interface ClusterServices {
  /** Name given at start (`--clusters`), also the health endpoint's cluster_name. */
  readonly name: string;
  readonly id: string;
  readonly store: KvStore;
  readonly tokens: TokenStore;
  readonly mounts: MountTable;
  /** The namespace of the request: '' for the root; handlers of a namespace get its own `mounts` (namespaces/scope.ts). */
  readonly namespace: string;
  /** The release the cluster reports (`serve --cluster-version`; default version.ts EMULATED_VERSION). */
  readonly release: Release;
  /** How managed keys reach their backends (kms_library stanzas, endpoint overrides). */
  readonly keyBackends: KeyBackendOptions;
  readonly log: (line: string) => void;
  /** The time the cluster lives by (util/clock.ts): the system's, or a test's. */
  readonly clock: Clock;
  /** Automated snapshots: schedules and their status. */
  readonly snapshots: SnapshotScheduler;
  /** DR replication (root namespace only; absent in test doubles). */
  readonly dr?: DrReplication;
  /** How the root key was split at initialisation (seal-status `n` and `t`; absent in test doubles). */
  readonly keySplit?: { shares: number; threshold: number };
  /** seal-status `storage_type`: `inmem`, or `file` when persisted (absent in test doubles). */
  readonly storageType?: string;
}
