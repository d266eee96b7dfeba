import { isTransportError } from '../../client/errors.js';
import type { ClusterClient } from '../../client/types.js';
import type { JsonObject } from '../../core/json.js';
import { record } from '../../core/json-shape.js';
import { checkLiveAnswer } from '../../core/live-shape.js';
import { readRelease, type Release } from '../../values/index.js';
import { classifyUnserved } from '../feature.js';
import { STATUS_PATH } from './addresses.js';
import { statusAttrs, UNREACHABLE_ATTRS } from './status.js';

export type StatusRead = { attrs: JsonObject; unreachableReason?: string };

/**
 * `GET sys/replication/dr/status` and the release from `GET sys/health`, both without a token. A
 * cluster that does not answer is a fact (`{reachable: false}`), not an error; an answer lockstep
 * cannot read is an error (the status's first: it says whether DR is served at all).
 */
export async function readStatus(client: ClusterClient): Promise<StatusRead> {
  const [report, release] = await Promise.allSettled([readStatusReport(client), readReportedRelease(client)]);
  const failure = [report, release].find((r): r is PromiseRejectedResult => r.status === 'rejected');
  if (failure) {
    const err: unknown = failure.reason;
    if (isTransportError(err)) return { attrs: UNREACHABLE_ATTRS, unreachableReason: err.message };
    throw err;
  }
  return { attrs: statusAttrs((report as PromiseFulfilledResult<JsonObject>).value, (release as PromiseFulfilledResult<Release | undefined>).value) };
}

const HEALTH_PATH = 'sys/health';

/** Only the field read is checked: health's other members are not lockstep's business. */
const HEALTH_SHAPE = record({ version: 'text' }, []);

/**
 * The release a cluster reports in `sys/health` (http/sys_health.go: `version`, answered by every
 * node, whatever its state, with the codes the options accept); undefined when it reports none.
 * A version that is not a release is an error naming the cluster, the path and the field.
 */
export async function readReportedRelease(client: ClusterClient): Promise<Release | undefined> {
  const source = { cluster: client.cluster, method: 'GET' as const, path: HEALTH_PATH };
  // Standbys, DR secondaries, sealed and uninitialised nodes answer with other codes (http/sys_health.go).
  const answer = await client.request('GET', HEALTH_PATH, { anonymous: true, okStatuses: [429, 472, 473, 501, 503] });
  const version = checkLiveAnswer(source, answer.data ?? {}, HEALTH_SHAPE)['version'];
  if (typeof version !== 'string') return undefined; // the shape allows only a text or nothing
  const read = readRelease(version);
  if (read.kind === 'refused') {
    const shown = JSON.stringify(version.length > 40 ? `${version.slice(0, 40)}...` : version);
    throw new Error(`${client.cluster}: GET ${HEALTH_PATH}: field "version" is ${shown}, ${read.reason}`);
  }
  return read.value;
}

/**
 * The status report's shape as the service answers it (vault/logical_system_dr.go and the
 * replication status API docs): `mode` always, the other fields when the mode has them. Extra
 * fields (`secondaries`, `primaries`, heartbeats) are not read, so not checked. A mode the
 * planner cannot plan from (`bootstrapping`, a transitional state the service does report:
 * sdk/helper/consts/replication.go GetDRString) is the planner's to refuse, not a shape error.
 */
const STATUS_SHAPE = record(
  {
    mode: 'text',
    cluster_id: 'text',
    state: 'text',
    connection_state: 'text',
    primary_cluster_addr: 'text',
    known_secondaries: 'texts',
    known_primary_cluster_addrs: 'texts',
    secondary_id: 'text',
    last_wal: 'integer',
    last_remote_wal: 'integer',
  },
  ['mode'],
);

/** The status report as answered (WAL positions included, which the planner's attrs leave out), its shape checked. */
export async function readStatusReport(client: ClusterClient): Promise<JsonObject> {
  const { data } = await client.request('GET', STATUS_PATH, { anonymous: true }).catch((err: unknown) => {
    throw classifyUnserved(err, 'GET', STATUS_PATH);
  });
  return checkLiveAnswer({ cluster: client.cluster, method: 'GET', path: STATUS_PATH }, data, STATUS_SHAPE) as JsonObject;
}
