import type { ClusterClient } from '../../client/types.js';
import type { ClusterTarget } from '../../core/cluster.js';
import { readStatus } from './status-read.js';
import { DR_REPLICATION_KIND } from './types.js';
import { EnvReference } from '../../load/manifest-writer.js';

/**
 * The DR replication set a cluster is the DR primary of, as one document named after it; nothing
 * for a secondary or a DR-disabled cluster (its primary's export holds its set). Secondaries are
 * the primary's known secondary ids, which lockstep makes the clusters' names. DR operation
 * tokens cannot be read back: each secondary's is an `${env:<CLUSTER>_DR_OPERATION_TOKEN}`
 * reference to fill in (or replace them all with keyShares).
 */
export async function exportDrReplication(client: ClusterClient, cluster: ClusterTarget): Promise<Record<string, unknown>[]> {
  const { attrs, unreachableReason } = await readStatus(client);
  if (unreachableReason !== undefined) throw new Error(`cannot read the DR status: ${unreachableReason}`);
  if (attrs['mode'] !== 'primary') return [];
  const known = attrs['known_secondaries'];
  const secondaries = Array.isArray(known) ? known.filter((s): s is string => typeof s === 'string').sort() : [];
  return [
    {
      apiVersion: 'lockstep/v1',
      kind: DR_REPLICATION_KIND,
      name: cluster.name,
      primary: cluster.name,
      ...(secondaries.length > 0 ? { secondaries, operationTokens: Object.fromEntries(secondaries.map((s) => [s, new EnvReference(envName(s))])) } : {}),
    },
  ];
}

function envName(cluster: string): string {
  return `${cluster}_DR_OPERATION_TOKEN`.toUpperCase().replace(/[^A-Z0-9_]/g, '_');
}
