import type { ApiRequest } from '../http/api-request.js';
import { ok, noContent, type Reply } from '../http/reply.js';
import type { Route } from '../http/router.js';
import type { ClusterServices } from '../services.js';
import type { JsonObject } from '../util/json.js';
import type { DrReplication } from './dr-replication.js';

/**
 * The spec's DR replication endpoints, plus the emulator's cluster-to-cluster ones. Primary
 * endpoints need the root token (sudo); the secondary endpoints authorised by a DR operation
 * token or by key shares are public (the token or shares are checked by the handler); on a DR
 * secondary the gate serves all secondary endpoints without a client token.
 */

const DR = 'sys/replication/dr';

function drOf(cluster: ClusterServices): DrReplication {
  const dr = cluster.dr;
  if (!dr) throw new Error('DR replication is not set up on this cluster');
  return dr;
}

type DrHandler = (dr: DrReplication, req: ApiRequest) => Reply | Promise<Reply>;

function update(pattern: string, access: Route['access'], handler: DrHandler): Route {
  return { pattern: `${DR}/${pattern}`, access, handlers: { update: (req) => handler(drOf(req.cluster), req) } };
}

/** Operation-token generation answers without the envelope. */
function bare(body: JsonObject): Reply {
  return { kind: 'raw', status: 200, body };
}

export const drReplicationRoutes: Route[] = [
  { pattern: `${DR}/status`, access: 'public', handlers: { read: ({ cluster }) => ok(drOf(cluster).status()) } },

  update('primary/enable', 'acl', (dr, req) => dr.enablePrimary(req.body)),
  update('primary/demote', 'acl', (dr) => dr.demote()),
  update('primary/disable', 'acl', (dr) => dr.disablePrimary()),
  update('primary/secondary-token', 'acl', (dr, req) => dr.secondaryToken(req.body)),
  update('primary/revoke-secondary', 'acl', (dr, req) => dr.revokeSecondary(req.body)),

  update('secondary/generate-public-key', 'acl', (dr) => dr.generatePublicKey()),
  update('secondary/enable', 'acl', (dr, req) => dr.enableSecondary(req.body)),
  update('secondary/promote', 'public', (dr, req) => dr.promote(req.body)),
  update('secondary/disable', 'public', (dr, req) => dr.disableSecondary(req.body)),
  update('secondary/update-primary', 'public', (dr, req) => dr.updatePrimary(req.body)),
  update('secondary/reindex', 'public', (dr, req) => dr.reindex(req.body)),
  update('secondary/operation-token/delete', 'public', (dr, req) => dr.deleteOperationToken(req.body)),
  {
    pattern: `${DR}/secondary/generate-operation-token/attempt`,
    access: 'public',
    handlers: {
      read: ({ cluster }) => bare(drOf(cluster).attemptStatus()),
      update: async ({ cluster, body }) => bare(await drOf(cluster).attemptStart(body)),
      delete: ({ cluster }) => {
        drOf(cluster).attemptCancel();
        return noContent();
      },
    },
  },
  update('secondary/generate-operation-token/update', 'public', async (dr, req) => bare(await dr.attemptUpdate(req.body))),

  update('emulator/activate', 'public', async (dr, req) => ok((await dr.activate(req.body)) as unknown as JsonObject)),
  update('emulator/stream', 'public', async (dr, req) => bare((await dr.stream(req.body)) as unknown as JsonObject)),
];
