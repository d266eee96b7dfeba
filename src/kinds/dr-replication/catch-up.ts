import type { ClusterClient } from '../../client/types.js';
import { jsonText, type JsonObject } from '../../core/json.js';
import { readStatusReport } from './status-read.js';

export interface CatchUpTiming {
  /** How long to wait for the secondary before giving up (and not demoting). */
  timeoutMs: number;
  /** Pause between two looks at the WAL positions. */
  intervalMs: number;
}

const CATCH_UP_TIMING: CatchUpTiming = { timeoutMs: 60_000, intervalMs: 250 };

/**
 * Before a planned failover demotes the primary: waits until the secondary that is to be promoted
 * has applied every write the primary has made (its `last_remote_wal` reaches the primary's
 * `last_wal`), so that promoting it loses none of them. Writes that arrive between the last look
 * and the demotion can still be lost; the wait makes that window a fraction of a second instead
 * of however far the secondary lags.
 *
 * Waits only for a secondary of this primary's set that is streaming WALs and reports positions.
 * A secondary still copying (merkle-sync) is left to the promote step, which the service refuses
 * without force; nothing is waited for when either side does not answer as expected.
 */
export async function awaitCaughtUp(
  primaryName: string,
  primary: ClusterClient,
  secondaryName: string,
  secondary: ClusterClient,
  timing: CatchUpTiming = CATCH_UP_TIMING,
): Promise<void> {
  const deadline = Date.now() + timing.timeoutMs;
  for (;;) {
    const [p, s] = await Promise.all([statusData(primary), statusData(secondary)]);
    const lag = lagOf(p, s);
    if (lag === undefined) return;
    if (Date.now() >= deadline) {
      throw new Error(
        `${secondaryName} has not received ${primaryName}'s latest writes after ${Math.round(timing.timeoutMs / 1000)} s ` +
          `(WAL ${lag.applied} of ${lag.written}, connection ${lag.connection}), so ${primaryName} was not demoted: ` +
          `find out why ${secondaryName} lags, then apply again`,
      );
    }
    await new Promise((resolve) => setTimeout(resolve, timing.intervalMs));
  }
}

/** How far the secondary is behind, or undefined when there is nothing to wait for. */
function lagOf(p: JsonObject | undefined, s: JsonObject | undefined): { written: number; applied: number; connection: string } | undefined {
  if (!p || !s || p['mode'] !== 'primary' || s['mode'] !== 'secondary') return undefined;
  if (s['cluster_id'] !== p['cluster_id'] || s['state'] !== 'stream-wals') return undefined;
  const written = p['last_wal'];
  const applied = s['last_remote_wal'];
  if (typeof written !== 'number' || typeof applied !== 'number' || applied >= written) return undefined;
  return { written, applied, connection: jsonText(s['connection_state'] ?? 'unknown') };
}

/** The status report, or undefined if it cannot be read (then there is nothing to wait for). */
function statusData(client: ClusterClient): Promise<JsonObject | undefined> {
  return readStatusReport(client).catch(() => undefined);
}
