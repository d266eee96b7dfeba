import type { TokenStore } from './auth/token-store.js';
import type { KvStore } from './storage/kv-store.js';
import type { MountTable } from './sys/mount-table.js';

/** What request handlers of one cluster work with. */
export interface ClusterServices {
  /** Name given at start (`--clusters`), also the health endpoint's cluster_name. */
  readonly name: string;
  readonly id: string;
  readonly store: KvStore;
  readonly tokens: TokenStore;
  readonly mounts: MountTable;
  readonly log: (line: string) => void;
}
