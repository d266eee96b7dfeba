import { describe, expect, it } from 'vitest';
import type { ApiResponse, ClusterClient } from '../../../src/client/types.js';
import type { JsonObject } from '../../../src/core/json.js';
import { drReplicationKind } from '../../../src/kinds/dr-replication/index.js';
import type { ClientPool } from '../../../src/kinds/kind.js';
import { drDoc, kindContext } from './fixtures.js';

/** Clients answering the given DR status reports; 'down' refuses the connection. */
function pool(statuses: Record<string, JsonObject | 'down'>, releases: Record<string, string> = {}): ClientPool {
  return {
    get: (cluster) =>
      ({
        cluster,
        request: async (_method: string, path: string): Promise<ApiResponse> => {
          if (path === 'sys/health' && statuses[cluster] !== 'down') {
            const version = releases[cluster];
            const health: JsonObject = version ? { version } : {};
            return { status: 200, data: health, auth: null, warnings: [], body: health };
          }
          const data = statuses[cluster];
          if (data === undefined) throw new Error(`no client for cluster ${cluster}`);
          if (data === 'down') throw new Error(`cannot reach ${cluster}: connection refused`);
          return { status: 200, data, auth: null, warnings: [], body: { data } };
        },
      }) as unknown as ClusterClient,
  };
}

const primary = (lastWal: number): JsonObject => ({ mode: 'primary', cluster_id: 'c1', state: 'running', known_secondaries: ['south', 'west'], last_wal: lastWal });
const secondary = (extra: JsonObject): JsonObject => ({ mode: 'secondary', cluster_id: 'c1', state: 'stream-wals', connection_state: 'ready', last_remote_wal: 40, ...extra });

async function check(statuses: Record<string, JsonObject | 'down'>, releases: Record<string, string> = {}, acknowledge?: string[]) {
  const doc = drDoc({ primary: 'east', secondaries: ['west', 'south'], operationTokens: { west: 'w', south: 's' }, ...(acknowledge ? { acknowledge } : {}) });
  const desired = drReplicationKind.desired([doc], kindContext(['east', 'west', 'south']));
  const findings = await drReplicationKind.check!(desired, { now: new Date() }, pool(statuses, releases));
  return findings.map((f) => `${f.ok ? 'ok' : 'FAIL'} ${f.subject} @${f.address}: ${f.message}`);
}

describe('check of a DR set', () => {
  it('reports each member: the primary, and how far each streaming secondary is behind', async () => {
    expect(await check({ east: primary(42), west: secondary({ last_remote_wal: 42 }), south: secondary({}) })).toEqual([
      'ok DR set prod: east @east:sys/replication/dr/status: DR primary (2 known secondaries, last WAL 42)',
      'ok DR set prod: west @west:sys/replication/dr/status: DR secondary of east, streaming, WAL 42 of 42',
      'ok DR set prod: south @south:sys/replication/dr/status: DR secondary of east, streaming, WAL 40 of 42 (2 behind)',
    ]);
  });

  it('fails a member that is down, copying, or not connected; a disabled one is only reported', async () => {
    const lines = await check({ east: 'down', west: secondary({ state: 'merkle-sync' }), south: secondary({ connection_state: 'transient_failure' }) });
    expect(lines).toEqual([
      'FAIL DR set prod: east @east:sys/replication/dr/status: no DR status: cannot reach east: connection refused',
      'FAIL DR set prod: west @west:sys/replication/dr/status: DR secondary of its primary, still copying (merkle-sync): not ready to be promoted',
      'FAIL DR set prod: south @south:sys/replication/dr/status: DR secondary of its primary, connection transient_failure: not receiving writes',
    ]);
    expect(await check({ east: primary(1), west: { mode: 'disabled' }, south: secondary({ state: 'idle' }) })).toEqual([
      'ok DR set prod: east @east:sys/replication/dr/status: DR primary (2 known secondaries, last WAL 1)',
      'ok DR set prod: west @west:sys/replication/dr/status: DR replication disabled (a plan enables it)',
      'ok DR set prod: south @south:sys/replication/dr/status: DR secondary following no primary (after a demotion: a plan attaches it)',
    ]);
  });

  it('#26: shows each member\'s release (sys/health `version`); a secondary older than the primary it streams from fails unless acknowledged', async () => {
    const statuses = { east: primary(42), west: secondary({ last_remote_wal: 42 }), south: secondary({ last_remote_wal: 42 }) };
    const releases = { east: '1.21.1+ent', west: '1.21.1+ent.hsm', south: '1.21.0+ent' };
    expect(await check(statuses, releases)).toEqual([
      'ok DR set prod: east @east:sys/replication/dr/status: DR primary (2 known secondaries, last WAL 42); release 1.21.1+ent',
      'ok DR set prod: west @west:sys/replication/dr/status: DR secondary of east, streaming, WAL 42 of 42; release 1.21.1+ent.hsm',
      'FAIL DR set prod: south @south:sys/replication/dr/status: DR secondary of east, streaming, WAL 42 of 42; release 1.21.0+ent; ' +
        'older than its primary east (1.21.1+ent): replicating from a newer release to an older one is unsafe: upgrade south to 1.21.1+ent or later (secondaries are upgraded first)',
    ]);
    const acknowledged = await check(statuses, releases, ['primary-newer-than-secondary']);
    expect(acknowledged[2]).toBe(
      'ok DR set prod: south @south:sys/replication/dr/status: DR secondary of east, streaming, WAL 42 of 42; release 1.21.0+ent; ' +
        'older than its primary east (1.21.1+ent): replicating from a newer release to an older one is unsafe (acknowledged as primary-newer-than-secondary)',
    );
  });
});
