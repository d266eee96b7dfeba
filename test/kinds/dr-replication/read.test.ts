import { describe, expect, it } from 'vitest';
import { ApiError } from '../../../src/client/errors.js';
import { fingerprintAll } from '../../../src/core/fingerprint.js';
import type { ApiResponse, ClusterClient, HttpMethod, RequestOptions } from '../../../src/client/types.js';
import { drReplicationKind } from '../../../src/kinds/dr-replication/index.js';
import type { ClientPool } from '../../../src/kinds/kind.js';
import { drDoc, kindContext, SHARE_TEXTS } from './fixtures.js';
import { FaultInjector, WorldPool } from './model/client.js';
import { applyChanges, planOnce } from './model/harness.js';
import { World } from './model/world-state.js';

const NAMES = ['east', 'west', 'south', 'spare'];
const desired = drReplicationKind.desired([drDoc({ primary: 'east', secondaries: ['west', 'south'], keyShares: SHARE_TEXTS })], kindContext(NAMES));

async function world(): Promise<{ world: World; pool: WorldPool }> {
  const w = new World(NAMES);
  const pool = new WorldPool(w, new FaultInjector());
  const plan = await planOnce(w, pool, { primary: 'east', secondaries: ['west', 'south'] }, { syncSecrets: false, allowUnreachablePrimary: false, force: false });
  await applyChanges(plan, pool, { allowDestructive: true });
  w.tick();
  return { world: w, pool };
}

describe('reading DR status', () => {
  it('reads every member and every unassigned cluster, anonymously', async () => {
    const seen: Array<[string, string, boolean]> = [];
    const pool: ClientPool = {
      get: (cluster): ClusterClient => ({
        cluster,
        baseUrl: '',
        requestCount: 0,
        concurrency: 4,
        request: async (method: HttpMethod, path: string, opts?: RequestOptions): Promise<ApiResponse> => {
          seen.push([cluster, `${method} ${path}`, opts?.anonymous === true]);
          return { status: 200, data: { mode: 'disabled' }, auth: null, warnings: [], body: null };
        },
        read: async () => null,
        write: async () => ({ status: 204, data: null, auth: null, warnings: [], body: null }),
        delete: async () => undefined,
      }),
    };
    const live = await drReplicationKind.read(desired, pool);
    expect(seen.sort()).toEqual(NAMES.flatMap((n) => [[n, 'GET sys/health', true], [n, 'GET sys/replication/dr/status', true]]).sort());
    expect(live.resources.map((r) => [r.address.toString(), r.resourceType, r.attrs])).toContainEqual([
      'spare:sys/replication/dr/status',
      'dr.status',
      { reachable: true, mode: 'disabled' },
    ]);
  });

  it('keeps the status fields, normalised', async () => {
    const { pool } = await world();
    const live = await drReplicationKind.read(desired, pool);
    const east = live.resources.find((r) => r.address.cluster === 'east')!.attrs;
    const west = live.resources.find((r) => r.address.cluster === 'west')!.attrs;
    expect(east).toMatchObject({ reachable: true, mode: 'primary', state: 'running', known_secondaries: ['south', 'west'] });
    expect(west).toMatchObject({ reachable: true, mode: 'secondary', state: 'stream-wals', connection_state: 'ready', secondary_id: 'west' });
    expect(west['cluster_id']).toBe(east['cluster_id']);
    expect(west['primary_cluster_addr']).toBe(east['primary_cluster_addr']);
    // The release as sys/health reports it (http/sys_health.go `version`; a DR secondary answers 472).
    expect([east['release'], west['release']]).toEqual(['1.21.0+ent', '1.21.0+ent']);
  });

  it('#26: an upgrade is part of what a saved plan read: the fingerprint of the upgraded cluster changes', async () => {
    const { world: w, pool } = await world();
    const before = fingerprintAll((await drReplicationKind.read(desired, pool)).observed);
    w.cluster('west').release = '1.21.1+ent';
    const after = fingerprintAll((await drReplicationKind.read(desired, pool)).observed);
    expect(after['west:sys/replication/dr/status']).not.toBe(before['west:sys/replication/dr/status']);
    expect(after['east:sys/replication/dr/status']).toBe(before['east:sys/replication/dr/status']);
  });

  it('#26: a version that is not a release fails the read, naming cluster, path and field', async () => {
    for (const [version, why] of [
      ['banana', 'field "version" is "banana", not a release'],
      [12, 'field "version" is a number, expected a string'],
    ] as const) {
      const { world: w, pool } = await world();
      (w.cluster('south') as { release: unknown }).release = version;
      const read = drReplicationKind.read(desired, pool);
      await expect(read).rejects.toThrow('south: reading the DR replication status failed: south: GET sys/health: ');
      await expect(read).rejects.toThrow(why);
    }
  });

  it('an unreachable member is a fact with a warning; an unreachable unassigned cluster a note', async () => {
    const { world: w, pool } = await world();
    w.setReachable('south', false);
    w.setReachable('spare', false);
    const live = await drReplicationKind.read(desired, pool);
    expect(live.resources.find((r) => r.address.cluster === 'south')!.attrs).toEqual({ reachable: false });
    expect(live.notes.map((n) => [n.severity, n.address?.toString()])).toEqual([
      ['warning', 'south:sys/replication/dr/status'],
      ['info', 'spare:sys/replication/dr/status'],
    ]);
    expect(live.notes[0]!.message).toContain('south is unreachable, its DR state is unknown: cannot reach south');
  });

  it('fingerprints ignore WAL positions, heartbeats and sync state, but see a change of role', async () => {
    const { world: w, pool } = await world();
    const first = await drReplicationKind.read(desired, pool);
    w.cluster('west').synced = false; // state: merkle-sync; WALs moved on every request too
    const second = await drReplicationKind.read(desired, pool);
    expect(second.resources.find((r) => r.address.cluster === 'east')!.attrs).toEqual(first.resources.find((r) => r.address.cluster === 'east')!.attrs);
    expect(fingerprintAll(second.observed)).toEqual(fingerprintAll(first.observed));
    w.cluster('south').mode = 'disabled';
    const third = fingerprintAll((await drReplicationKind.read(desired, pool)).observed);
    const before = fingerprintAll(first.observed);
    expect(third['south:sys/replication/dr/status']).not.toBe(before['south:sys/replication/dr/status']);
    expect(third['west:sys/replication/dr/status']).toBe(before['west:sys/replication/dr/status']);
  });

  it('a member that answers with an error fails the read, naming it; an unassigned one is only noted', async () => {
    const failing = (who: string): ClientPool => ({
      get: (cluster): ClusterClient => ({
        cluster,
        baseUrl: '',
        requestCount: 0,
        concurrency: 4,
        request: async (): Promise<ApiResponse> => {
          if (cluster === who) throw new ApiError({ cluster, method: 'GET', url: 'u', status: 503, errors: ['sealed'], message: 'GET u: 503 Service Unavailable: sealed' });
          return { status: 200, data: { mode: 'disabled' }, auth: null, warnings: [], body: null };
        },
        read: async () => null,
        write: async () => ({ status: 204, data: null, auth: null, warnings: [], body: null }),
        delete: async () => undefined,
      }),
    });
    await expect(drReplicationKind.read(desired, failing('west'))).rejects.toThrow('west: reading the DR replication status failed: GET u: 503 Service Unavailable: sealed');
    const live = await drReplicationKind.read(desired, failing('spare'));
    expect(live.resources.find((r) => r.address.cluster === 'spare')!.attrs).toEqual({ reachable: false });
    expect(live.notes[0]!.severity).toBe('info');
  });

  it('#13.9: a status report of the wrong shape fails the read, naming cluster, path and field', async () => {
    const answering = (who: string, data: ApiResponse['data']): ClientPool => ({
      get: (cluster): ClusterClient => ({
        cluster,
        baseUrl: '',
        requestCount: 0,
        concurrency: 4,
        request: async (): Promise<ApiResponse> => ({ status: 200, data: cluster === who ? data : { mode: 'disabled' }, auth: null, warnings: [], body: null }),
        read: async () => null,
        write: async () => ({ status: 204, data: null, auth: null, warnings: [], body: null }),
        delete: async () => undefined,
      }),
    });
    await expect(drReplicationKind.read(desired, answering('east', { mode: 'primary', cluster_id: 'c', known_secondaries: 'west' }))).rejects.toThrow(
      'east: GET sys/replication/dr/status: field "known_secondaries" is a string, expected a list of strings',
    );
    await expect(drReplicationKind.read(desired, answering('west', { mode: ['secondary'] }))).rejects.toThrow(
      'west: GET sys/replication/dr/status: field "mode" is a list, expected a string',
    );
    await expect(drReplicationKind.read(desired, answering('south', null))).rejects.toThrow(
      'south: GET sys/replication/dr/status: field "(the answer)" is null, expected an object',
    );
    await expect(drReplicationKind.read(desired, answering('east', { cluster_id: 'c' }))).rejects.toThrow('field "mode" is missing');
    // A newer release's extra fields, and the service's secondaries[] objects, are accepted.
    const live = await drReplicationKind.read(desired, answering('east', { mode: 'primary', cluster_id: 'c', known_secondaries: [], secondaries: [{ node_id: 'x' }], added: 1 }));
    expect(live.resources.find((r) => r.address.cluster === 'east')!.attrs).toMatchObject({ mode: 'primary', cluster_id: 'c' });
  });
});
