import type { ClusterClient } from '../../client/types.js';
import { jsonText, type JsonObject } from '../../core/json.js';
import type { DesiredState } from '../../core/resource.js';
import type { CheckFinding, ClientPool } from '../kind.js';
import { statusAddress } from './addresses.js';
import { setAttrsOf } from './desired.js';
import { compareReleases, type Release } from '../../values/index.js';
import { SKEW_ACKNOWLEDGEMENT } from './release-order.js';
import { readReportedRelease, readStatusReport } from './status-read.js';
import { DR_SET } from './types.js';

type Status = { data: JsonObject; release: Release | undefined } | { unreachable: string };

/**
 * `check` for each DR replication set: every member answers its DR status, and every member
 * that is a secondary of the set's current primary is streaming from it, connected, and how
 * far behind it is (WALs). A secondary still copying or not connected fails the check: it is
 * not ready to be promoted. Roles that differ from the manifest are reported, not failed:
 * changing roles is what `plan` is for. Each member is shown with the release it reports; a
 * secondary on an older release than the primary it streams from fails (spec, versioning rule 4),
 * unless the set's document acknowledges it.
 */
export async function checkDrReplication(desired: DesiredState, _opts: { user?: string }, clients?: ClientPool): Promise<CheckFinding[]> {
  const findings: CheckFinding[] = [];
  for (const resource of desired.resources.filter((r) => r.resourceType === DR_SET)) {
    const set = setAttrsOf(resource.attrs);
    const members = [set.primary, ...set.secondaries.map((s) => s.cluster)];
    const statuses = new Map(await Promise.all(members.map(async (m) => [m, await statusOf(m, clients)] as const)));
    const primaries = members.filter((m) => dataOf(statuses.get(m))?.['mode'] === 'primary');
    const acknowledged = set.acknowledge.includes(SKEW_ACKNOWLEDGEMENT);
    for (const member of members) {
      const finding = withRelease(memberFinding(member, statuses, primaries), member, statuses, primaries, acknowledged);
      findings.push({ ...finding, subject: `DR set ${set.name}: ${member}`, address: statusAddress(member) });
    }
  }
  return findings;
}

function memberFinding(member: string, statuses: ReadonlyMap<string, Status>, primaries: readonly string[]): { ok: boolean; message: string } {
  const status = statuses.get(member)!;
  if ('unreachable' in status) return { ok: false, message: `no DR status: ${status.unreachable}` };
  const s = status.data;
  switch (s['mode']) {
    case 'primary': {
      const known = Array.isArray(s['known_secondaries']) ? s['known_secondaries'].length : 0;
      return { ok: true, message: `DR primary (${known} known secondar${known === 1 ? 'y' : 'ies'}, last WAL ${jsonText(s['last_wal'] ?? '?')})` };
    }
    case 'secondary': {
      const primary = primaries.find((p) => dataOf(statuses.get(p))?.['cluster_id'] === s['cluster_id']);
      const p = primary ? dataOf(statuses.get(primary)) : undefined;
      const state = jsonText(s['state'] ?? '');
      const connection = jsonText(s['connection_state'] ?? '');
      const of = primary ?? 'its primary';
      if (state === 'idle') return { ok: true, message: 'DR secondary following no primary (after a demotion: a plan attaches it)' };
      if (state !== 'stream-wals') return { ok: false, message: `DR secondary of ${of}, still copying (${state}): not ready to be promoted` };
      if (connection !== 'ready') return { ok: false, message: `DR secondary of ${of}, connection ${connection}: not receiving writes` };
      const applied = s['last_remote_wal'];
      const written = p?.['last_wal'];
      const lag = typeof applied === 'number' && typeof written === 'number' ? `WAL ${applied} of ${written}${written > applied ? ` (${written - applied} behind)` : ''}` : 'WAL positions not reported';
      return { ok: true, message: `DR secondary of ${of}, streaming, ${lag}` };
    }
    case 'disabled':
      return { ok: true, message: 'DR replication disabled (a plan enables it)' };
    default:
      return { ok: false, message: `unexpected DR mode ${JSON.stringify(s['mode'] ?? null)}` };
  }
}

/** The finding with the member's release after it, failed when it is older than the primary it streams from. */
function withRelease(
  finding: { ok: boolean; message: string },
  member: string,
  statuses: ReadonlyMap<string, Status>,
  primaries: readonly string[],
  acknowledged: boolean,
): { ok: boolean; message: string } {
  const status = statuses.get(member)!;
  if ('unreachable' in status) return finding;
  const own = status.release;
  if (!own) return finding;
  const message = `${finding.message}; release ${own.reported}`;
  const primary = status.data['mode'] === 'secondary' ? primaries.find((p) => dataOf(statuses.get(p))?.['cluster_id'] === status.data['cluster_id']) : undefined;
  const theirs = primary === undefined ? undefined : releaseOf(statuses.get(primary));
  if (!theirs || compareReleases(theirs, own) <= 0) return { ...finding, message };
  const skew = `older than its primary ${primary} (${theirs.reported}): replicating from a newer release to an older one is unsafe`;
  return acknowledged
    ? { ...finding, message: `${message}; ${skew} (acknowledged as ${SKEW_ACKNOWLEDGEMENT})` }
    : { ok: false, message: `${message}; ${skew}: upgrade ${member} to ${theirs.reported} or later (secondaries are upgraded first)` };
}

function releaseOf(status: Status | undefined): Release | undefined {
  return status && 'data' in status ? status.release : undefined;
}

function dataOf(status: Status | undefined): JsonObject | undefined {
  return status && 'data' in status ? status.data : undefined;
}

async function statusOf(cluster: string, clients: ClientPool | undefined): Promise<Status> {
  let client: ClusterClient;
  try {
    if (!clients) throw new Error('no server to ask');
    client = clients.get(cluster);
  } catch (err) {
    return { unreachable: (err as Error).message };
  }
  try {
    const [data, release] = await Promise.all([readStatusReport(client), readReportedRelease(client)]);
    return { data, release };
  } catch (err) {
    return { unreachable: (err as Error).message };
  }
}
