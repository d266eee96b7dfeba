import { isTransportError } from '../../client/errors.js';
import type { ClusterClient } from '../../client/types.js';
import type { JsonObject } from '../../core/json.js';
import { record } from '../../core/json-shape.js';
import { checkLiveAnswer } from '../../core/live-shape.js';
import { classifyUnserved } from '../feature.js';
import { STATUS_PATH } from './addresses.js';
import { statusAttrs, UNREACHABLE_ATTRS } from './status.js';

export type StatusRead = { attrs: JsonObject; unreachableReason?: string };

/**
 * `GET sys/replication/dr/status` without a token. A cluster that does not answer is a fact
 * (`{reachable: false}`), not an error; an answer lockstep cannot read is an error.
 */
export async function readStatus(client: ClusterClient): Promise<StatusRead> {
  try {
    return { attrs: statusAttrs(await readStatusReport(client)) };
  } catch (err) {
    if (isTransportError(err)) return { attrs: UNREACHABLE_ATTRS, unreachableReason: err.message };
    throw err;
  }
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
