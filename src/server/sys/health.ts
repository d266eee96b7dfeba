import type { Route } from '../http/router.js';
import { EMULATED_VERSION } from '../version.js';

/** `sys/health`: answered without the envelope and without a token, as the service does. */
export const healthRoute: Route = {
  pattern: 'sys/health',
  access: 'public',
  handlers: {
    read: ({ cluster }) => ({
      kind: 'raw',
      status: 200,
      body: {
        initialized: true,
        sealed: false,
        standby: false,
        performance_standby: false,
        replication_performance_mode: 'disabled',
        replication_dr_mode: cluster.dr?.mode ?? 'disabled',
        server_time_utc: Math.floor(Date.now() / 1000),
        version: EMULATED_VERSION,
        enterprise: true,
        cluster_name: cluster.name,
        cluster_id: cluster.id,
      },
    }),
  },
};
