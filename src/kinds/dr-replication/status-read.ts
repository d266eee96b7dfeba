import { isTransportError } from '../../client/errors.js';
import type { ClusterClient } from '../../client/types.js';
import type { JsonObject } from '../../core/json.js';
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

/** The status report as answered (WAL positions included, which the planner's attrs leave out). */
export async function readStatusReport(client: ClusterClient): Promise<JsonObject> {
  return (await client.request('GET', STATUS_PATH, { anonymous: true })).data ?? {};
}
