import { checkSnapshotDestination, checkSnapshotStatus, type SnapshotCheckConfig } from '../../check/snapshot/index.js';
import { isTransportError } from '../../client/errors.js';
import type { ClusterClient } from '../../client/types.js';
import type { DesiredResource, DesiredState } from '../../core/resource.js';
import { collectSecretTexts, scrub } from '../../core/secret.js';
import type { CheckFinding, ClientPool } from '../kind.js';
import { readShaped } from '../live-read.js';
import { scopeOfConfig, statusPath } from './addresses.js';
import { SNAPSHOT_STATUS_SHAPE } from './live-shapes.js';
import { SNAPSHOT_CONFIG } from './types.js';

/**
 * `check` for each snapshot policy: its destination, straight to the storage (probe write,
 * read back, delete; space for local), and its health as the server reports it
 * (`GET .../snapshot-auto/status/<name>`: last error, consecutive errors, age of the newest
 * snapshot against the interval). The status needs the cluster; without one it is skipped
 * with a note, never a crash.
 */
export async function checkSnapshotPolicies(
  desired: DesiredState,
  _opts: { user?: string },
  clients?: ClientPool,
  now: () => Date = () => new Date(),
): Promise<CheckFinding[]> {
  const policies = desired.resources.filter((r) => r.resourceType === SNAPSHOT_CONFIG);
  const results = await Promise.all(
    policies.map(async (r) => {
      const config = checkConfigOf(r);
      const [destination, status] = await Promise.all([checkSnapshotDestination(config), checkStatus(r, config, clients, now)]);
      return [...destination, ...status].map((f) => ({ ...f, address: r.address }));
    }),
  );
  return results.flat();
}

/** The configuration as the check functions take it: attrs, credentials (still Secret) and the name. */
function checkConfigOf(r: DesiredResource): SnapshotCheckConfig {
  const { name } = scopeOfConfig(r.address);
  return { ...r.attrs, ...r.writeOnly, name } as unknown as SnapshotCheckConfig;
}

async function checkStatus(
  r: DesiredResource,
  config: SnapshotCheckConfig,
  clients: ClientPool | undefined,
  now: () => Date,
): Promise<Array<Omit<CheckFinding, 'address'>>> {
  const { scope, name } = scopeOfConfig(r.address);
  const subject = `snapshot-auto/status/${name}`;
  const client = clientOf(clients, scope.cluster);
  if (!client) {
    return [{ ok: true, subject, message: `health not checked: no server is configured for cluster ${scope.cluster} (set SERVICE_ADDR and SERVICE_TOKEN, or add a Cluster document)` }];
  }
  let data;
  try {
    data = await readShaped(client, statusPath(scope, name), SNAPSHOT_STATUS_SHAPE);
  } catch (err) {
    const secrets = collectSecretTexts(r.writeOnly);
    const why = err instanceof Error ? err.message : String(err);
    const what = isTransportError(err) ? 'cannot reach the server for the status' : 'cannot read the status';
    return [{ ok: false, subject, message: scrub(`${what}: ${why}`, secrets) }];
  }
  if (data === null) {
    return [{ ok: true, subject, message: `not configured on ${scope.cluster} yet (apply creates it); health not checked` }];
  }
  return checkSnapshotStatus(data, config, now());
}

function clientOf(clients: ClientPool | undefined, cluster: string): ClusterClient | undefined {
  if (!clients) return undefined;
  try {
    return clients.get(cluster);
  } catch {
    return undefined; // a cluster without a complete target (check does not require one)
  }
}
