import { badRequest } from '../http/reply.js';
import type { Route } from '../http/router.js';
import { BUILD_DATE } from '../version.js';

/**
 * `sys/seal-status` and `sys/init` (http/sys_seal.go, http/sys_init.go): answered to any
 * client, without the envelope. An emulated cluster is initialised and unsealed from its start.
 */
export const sealRoutes: Route[] = [
  {
    pattern: 'sys/seal-status',
    access: 'public',
    handlers: {
      read: ({ cluster }) => ({
        kind: 'raw',
        status: 200,
        body: {
          type: 'shamir',
          initialized: true,
          sealed: false,
          t: cluster.keySplit?.threshold ?? 1,
          n: cluster.keySplit?.shares ?? 1,
          progress: 0,
          nonce: '',
          version: cluster.release.reported,
          build_date: BUILD_DATE,
          migration: false,
          cluster_name: cluster.name,
          cluster_id: cluster.id,
          recovery_seal: false,
          storage_type: cluster.storageType ?? 'inmem',
        },
      }),
    },
  },
  {
    pattern: 'sys/init',
    access: 'public',
    handlers: {
      read: () => ({ kind: 'raw', status: 200, body: { initialized: true } }),
      update: () => {
        throw badRequest('Vault is already initialized');
      },
    },
  },
];
