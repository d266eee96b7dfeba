import type { Route } from '../http/router.js';
import { GO_ZERO_TIME } from '../util/go-time.js';

/**
 * `sys/leader` (vault/logical_system.go GetLeaderStatus, LeaderResponse; http/sys_leader.go):
 * answered to any client, without the envelope. An emulated cluster is one node without HA
 * storage, so HA is off: the service then fills in no leader, its zero `active_time` (Go's
 * encoding/json writes a zero time.Time despite `omitempty`), and the node's WAL index in
 * `last_wal` (`omitempty`: left out while nothing was written). The service's CLI reads this for
 * `status` and fails without it.
 */
export const leaderRoute: Route = {
  pattern: 'sys/leader',
  access: 'public',
  handlers: {
    read: ({ cluster }) => ({
      kind: 'raw',
      status: 200,
      body: {
        ha_enabled: false,
        is_self: false,
        active_time: GO_ZERO_TIME,
        leader_address: '',
        leader_cluster_address: '',
        performance_standby: false,
        performance_standby_last_remote_wal: 0,
        ...(cluster.store.index === 0 ? {} : { last_wal: cluster.store.index }),
      },
    }),
  },
};
