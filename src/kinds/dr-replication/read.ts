import type { DesiredState, LiveState } from '../../core/resource.js';
import { UnservedPathError } from '../feature.js';
import type { ClientPool } from '../kind.js';
import { statusAddress } from './addresses.js';
import { setAttrsOf } from './desired.js';
import { readStatus, type StatusRead } from './status-read.js';
import { stableStatus, UNREACHABLE_ATTRS } from './status.js';
import { DR_SET, DR_STATUS } from './types.js';

/**
 * Reads the DR status of every member of every set, and of every unassigned cluster, all in
 * parallel and without a token. An unreachable member is a fact with a warning; an unassigned
 * cluster that cannot be read is only noted (it may not even run DR replication). Fingerprints
 * cover the stable fields only, so a saved plan is not stale because a WAL moved.
 */
export async function readDrReplication(desired: DesiredState, clients: ClientPool): Promise<LiveState> {
  const sets = desired.resources.filter((r) => r.resourceType === DR_SET).map((r) => setAttrsOf(r.attrs));
  const members = new Set(sets.flatMap((s) => [s.primary, ...s.secondaries.map((x) => x.cluster)]));
  const others = new Set(sets.flatMap((s) => s.unassignedClusters).filter((c) => !members.has(c)));
  const names = [...members, ...others].sort();
  const reads = await Promise.all(names.map(async (name) => [name, await readOne(name, clients, members.has(name))] as const));

  const live: LiveState = { resources: [], observed: {}, notes: [] };
  for (const [name, read] of reads) {
    const address = statusAddress(name);
    live.resources.push({ address, resourceType: DR_STATUS, attrs: read.attrs });
    live.observed[address.toString()] = stableStatus(read.attrs);
    if (read.unreachableReason === undefined) continue;
    live.notes.push(
      members.has(name)
        ? { severity: 'warning', address, message: `${name} is unreachable, its DR state is unknown: ${read.unreachableReason}` }
        : { severity: 'info', address, message: `${name} could not be read, so lockstep cannot tell whether it belongs to a DR replication set: ${read.unreachableReason}` },
    );
  }
  return live;
}

async function readOne(name: string, clients: ClientPool, member: boolean): Promise<StatusRead> {
  try {
    return await readStatus(clients.get(name));
  } catch (err) {
    // A server without DR replication is the pipeline's to report, at the documents.
    if (err instanceof UnservedPathError) throw err;
    const reason = err instanceof Error ? err.message : String(err);
    if (!member) return { attrs: UNREACHABLE_ATTRS, unreachableReason: reason };
    throw new Error(`${name}: reading the DR replication status failed: ${reason}`);
  }
}
