import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { TransportError } from '../../../src/client/errors.js';
import type { ClusterClient } from '../../../src/client/types.js';
import type { ClientPool } from '../../../src/kinds/kind.js';
import { checkSnapshotPolicies } from '../../../src/kinds/snapshot-policy/check.js';
import { desiredSnapshotPolicies } from '../../../src/kinds/snapshot-policy/normalise.js';
import { ctx, policy, snapshotDocs } from './docs.js';

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'lockstep-snap-check-'));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

const NOW = new Date('2030-01-01T12:00:00Z');

async function desired() {
  return desiredSnapshotPolicies(await snapshotDocs([policy('hourly', 'interval: 1h', 'storage_type: local', `path_prefix: ${dir}`, 'local_max_space: 1MiB')]), ctx);
}

/** A server whose GETs answer `read(path)`: an object's data, or null for a 404. */
function pool(read: (path: string) => Promise<unknown>): ClientPool {
  const request = async (_method: string, path: string) => {
    const data = await read(path);
    return data === null ? { status: 404, data: null, auth: null, warnings: [], body: { errors: [] } } : { status: 200, data, auth: null, warnings: [], body: { data } };
  };
  return { get: () => ({ cluster: 'default', request }) as unknown as ClusterClient };
}

async function statusFindings(clients: ClientPool | undefined) {
  const findings = await checkSnapshotPolicies(await desired(), {}, clients, () => NOW);
  expect(findings.some((f) => f.message.includes('reachable and writable'))).toBe(true);
  return findings.filter((f) => f.subject === 'snapshot-auto/status/hourly');
}

describe('check of a snapshot policy', () => {
  test('without a server for the cluster the status is skipped, not failed', async () => {
    const none = await statusFindings(undefined);
    expect(none).toEqual([expect.objectContaining({ ok: true, message: expect.stringContaining('health not checked: no server is configured for cluster default') })]);
    const unknown = await statusFindings({ get: () => { throw new Error('unknown cluster "default"'); } });
    expect(unknown[0]!.ok).toBe(true);
  });

  test('reads the status at the namespaced path; a policy not on the server yet is not a failure', async () => {
    const paths: string[] = [];
    const f = await statusFindings(pool(async (p) => (paths.push(p), null)));
    expect(paths).toEqual(['sys/storage/raft/snapshot-auto/status/hourly']);
    expect(f).toEqual([expect.objectContaining({ ok: true, message: 'not configured on default yet (apply creates it); health not checked' })]);
  });

  test('healthy, failing and stale statuses', async () => {
    const fresh = await statusFindings(pool(async () => ({ last_snapshot_start: '2030-01-01T11:30:00Z', last_snapshot_end: '2030-01-01T11:30:01Z', last_snapshot_error: '', consecutive_errors: 0, next_snapshot_start: '2030-01-01T12:30:00Z' })));
    expect(fresh.every((f) => f.ok)).toBe(true);
    const failing = await statusFindings(pool(async () => ({ last_snapshot_end: '2030-01-01T11:59:00Z', last_snapshot_error: 'disk full', consecutive_errors: 3 })));
    expect(failing.filter((f) => !f.ok).map((f) => f.message)).toEqual(['last snapshot attempt failed: disk full', '3 consecutive failed snapshot attempts']);
    const stale = await statusFindings(pool(async () => ({ last_snapshot_end: '2030-01-01T09:00:00Z', last_snapshot_error: '', consecutive_errors: 0 })));
    expect(stale.filter((f) => !f.ok).map((f) => f.message)).toEqual([expect.stringMatching(/^stale: the last snapshot ended 3h ago/)]);
    for (const f of [...fresh, ...failing, ...stale]) expect(String(f.address)).toBe('default:sys/storage/raft/snapshot-auto/config/hourly');
  });

  test('an unreachable server is a failing finding', async () => {
    const err = new TransportError({ cluster: 'default', method: 'GET', url: 'http://127.0.0.1:1/v1/x', code: 'ECONNREFUSED', attempts: 1, message: 'cannot reach default at http://127.0.0.1:1/v1: connection refused' });
    const f = await statusFindings(pool(async () => { throw err; }));
    expect(f).toEqual([expect.objectContaining({ ok: false, message: 'cannot reach the server for the status: cannot reach default at http://127.0.0.1:1/v1: connection refused' })]);
  });

  test('#13.9: a status of the wrong shape is a failing finding naming cluster, path and field, not a crash', async () => {
    const f = await statusFindings(pool(async () => ({ last_snapshot_error: 7, last_snapshot_end: ['2030-01-01T11:30:01Z'] })));
    expect(f).toEqual([
      expect.objectContaining({
        ok: false,
        message:
          'cannot read the status: default: GET sys/storage/raft/snapshot-auto/status/hourly: field "last_snapshot_end" is a list, expected a string; field "last_snapshot_error" is a number, expected a string',
      }),
    ]);
  });
});
