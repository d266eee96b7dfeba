import { describe, expect, it } from 'vitest';
import type { ApiResponse, ClusterClient } from '../../../src/client/types.js';
import type { JsonObject } from '../../../src/core/json.js';
import { awaitCaughtUp } from '../../../src/kinds/dr-replication/catch-up.js';

/** A client whose status report is whatever `report()` gives at the time of each read. */
function statusClient(report: () => JsonObject | Error): ClusterClient & { reads: number } {
  const client = {
    reads: 0,
    request: async (): Promise<ApiResponse> => {
      client.reads++;
      const data = report();
      if (data instanceof Error) throw data;
      return { status: 200, data, auth: null, warnings: [], body: { data } };
    },
  };
  return client as unknown as ClusterClient & { reads: number };
}

const FAST = { timeoutMs: 300, intervalMs: 10 };
const primary = (lastWal: number): JsonObject => ({ mode: 'primary', cluster_id: 'set-1', last_wal: lastWal });
const secondary = (applied: number, extra: JsonObject = {}): JsonObject => ({
  mode: 'secondary',
  cluster_id: 'set-1',
  state: 'stream-wals',
  connection_state: 'ready',
  last_remote_wal: applied,
  ...extra,
});

describe('awaitCaughtUp', () => {
  it('returns at once when the secondary has every write', async () => {
    const s = statusClient(() => secondary(42));
    await awaitCaughtUp('east', statusClient(() => primary(42)), 'west', s, FAST);
    expect(s.reads).toBe(1);
  });

  it('waits while the secondary lags, and returns once it has caught up', async () => {
    let applied = 10;
    const s = statusClient(() => secondary(applied < 42 ? (applied += 8) : 42));
    await awaitCaughtUp('east', statusClient(() => primary(42)), 'west', s, FAST);
    expect(s.reads).toBeGreaterThan(2);
  });

  it('gives up after the timeout, saying how far behind and that nothing was demoted', async () => {
    const lagging = statusClient(() => secondary(7, { connection_state: 'transient_failure' }));
    await expect(awaitCaughtUp('east', statusClient(() => primary(42)), 'west', lagging, FAST)).rejects.toThrow(
      "west has not received east's latest writes after 0 s (WAL 7 of 42, connection transient_failure), so east was not demoted",
    );
  });

  it.each([
    ['a secondary still copying (the promote step decides)', primary(42), secondary(1, { state: 'merkle-sync' })],
    ['a secondary of another set', primary(42), secondary(1, { cluster_id: 'other' })],
    ['a primary that is no longer primary', { mode: 'secondary', cluster_id: 'set-1' }, secondary(1)],
    ['reports without WAL positions', { mode: 'primary', cluster_id: 'set-1' }, secondary(1)],
    ['an unreachable secondary', primary(42), new Error('connect ECONNREFUSED')],
  ])('does not wait for %s', async (_why, p, s) => {
    const started = Date.now();
    await awaitCaughtUp('east', statusClient(() => p), 'west', statusClient(() => s), FAST);
    expect(Date.now() - started).toBeLessThan(FAST.timeoutMs);
  });
});
