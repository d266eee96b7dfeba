/**
 * Real snapshots to a local directory on a 1 s schedule, on a clock the test advances (each
 * advance awaits the attempts that fell due): files appear, retention keeps exactly `retain`
 * (and touches nothing else), the local_max_space allowance fails attempts and the status
 * counts them, a success resets the count, delete and close stop the schedule. The system
 * clock's wiring is proven by serve-restore.test.ts (a `serve` process's schedule).
 */
import { mkdtemp, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { decodeSnapshot } from '../../../src/server/snapshots/format.js';
import { snapshotKeyFromShares } from '../../../src/server/snapshots/snapshot-key.js';
import { ManualClock } from '../../support/manual-clock.js';
import { apiClient, enableLdap, startTestServer } from '../helpers.js';
import { CONFIG, STATUS, writtenUrls } from './support.js';

let dir: string;
let clock: ManualClock;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'lockstep-snapdir-'));
  clock = new ManualClock();
});
afterEach(() => rm(dir, { recursive: true, force: true }));

const snapFiles = async (prefix = 'vault-snapshot') =>
  (await readdir(dir)).filter((f) => new RegExp(`^${prefix}-\\d+\\.snap$`).test(f)).sort();

describe('local snapshots', () => {
  it('writes snapshots every interval and keeps exactly `retain`, leaving other files alone', async () => {
    const server = await startTestServer({ clock });
    const api = apiClient(server.clusters[0]!);
    let closed = false;
    try {
      await enableLdap(api);
      await api.post('auth/ldap/config', { url: 'ldap://dir.example.com', binddn: 'cn=svc' });
      await api.post('auth/ldap/groups/admins', { policies: 'admin' });
      const others = ['other.txt', 'vault-snapshot-old.snap', 'east-1.snap', 'vault-snapshot-extra-1.snap'];
      for (const f of others) await writeFile(join(dir, f), 'not mine');

      const before = clock.now();
      expect((await api.post(`${CONFIG}/every-second`, { interval: 1, retain: 2, storage_type: 'local', path_prefix: dir, local_max_space: 10_000_000 })).status).toBe(204);
      await clock.advance(999);
      expect(await snapFiles()).toEqual([]);
      for (let n = 1; n <= 4; n++) {
        await clock.advance(n === 1 ? 1 : 1000);
        expect(writtenUrls(server.logs, 'every-second')).toHaveLength(n);
        expect(await snapFiles()).toHaveLength(Math.min(n, 2));
      }

      const status = (await api.get(`${STATUS}/every-second`)).body.data;
      expect(status.last_snapshot_error).toBe('');
      expect(status.consecutive_errors).toBe(0);
      expect(status.last_snapshot_url).toMatch(new RegExp(`^file://.*/vault-snapshot-\\d+\\.snap$`));
      expect(Date.parse(status.last_snapshot_start)).toBe(before + 4000);
      expect(Date.parse(status.last_snapshot_end)).toBeGreaterThanOrEqual(Date.parse(status.last_snapshot_start));
      expect(Date.parse(status.next_snapshot_start)).toBe(before + 5000);

      await server.close();
      closed = true;
      const written = writtenUrls(server.logs, 'every-second');
      const files = await snapFiles();
      expect(files.length).toBe(2);
      expect(files.map((f) => pathToFileURL(join(dir, f)).toString())).toEqual(written.slice(-2));
      for (const f of others) expect(await readFile(join(dir, f), 'utf8')).toBe('not mine');
      expect((await stat(join(dir, files[1]!))).mode & 0o777).toBe(0o600);

      // The newest is a full, consistent snapshot of the cluster's store.
      const snapshot = decodeSnapshot(await readFile(join(dir, files[1]!)), [(await snapshotKeyFromShares(server.clusters[0]!.keyShares))!]);
      expect(snapshot.header.cluster_name).toBe('default');
      const keys = snapshot.entries.map(([k]) => k);
      expect(keys).toContain('core/snapshot-auto/config/every-second');
      expect(keys.some((k) => k.endsWith('/group/admins'))).toBe(true);

      // Closed: no timer left, no more snapshots.
      expect(clock.timerCount).toBe(0);
      await clock.advance(2200);
      expect(writtenUrls(server.logs, 'every-second')).toEqual(written);
    } finally {
      if (!closed) await server.close();
    }
  });

  it('fails attempts beyond local_max_space, counts them, and resets the count after a success', async () => {
    const server = await startTestServer({ clock });
    const api = apiClient(server.clusters[0]!);
    try {
      const base = { interval: 1, retain: 5, storage_type: 'local', path_prefix: dir };
      await api.post(`${CONFIG}/tight`, { ...base, local_max_space: 10_000_000 });
      await clock.advance(1000);
      expect(await snapFiles()).toHaveLength(1);
      const size = (await stat(join(dir, (await snapFiles())[0]!))).size;

      // Room for one snapshot, not two: existing + new > allowance.
      await api.post(`${CONFIG}/tight`, { ...base, local_max_space: Math.floor(size * 1.5) });
      const seen: number[] = [];
      for (let n = 0; n < 2; n++) {
        await clock.advance(1000);
        seen.push((await api.get(`${STATUS}/tight`)).body.data.consecutive_errors);
      }
      expect(seen).toEqual([1, 2]);
      const failing = (await api.get(`${STATUS}/tight`)).body.data;
      expect(failing.last_snapshot_error).toMatch(/^local_max_space exceeded: existing snapshots use \d+ bytes and this one needs \d+, more than the allowed \d+ bytes$/);
      expect(Date.parse(failing.last_snapshot_end)).toBeGreaterThanOrEqual(Date.parse(failing.last_snapshot_start));
      expect(await snapFiles()).toHaveLength(1);
      expect(server.logs.some((l) => l.includes('snapshot-auto tight: snapshot failed: local_max_space exceeded'))).toBe(true);

      await api.post(`${CONFIG}/tight`, { ...base, local_max_space: 10_000_000 });
      await clock.advance(1000);
      const recovered = (await api.get(`${STATUS}/tight`)).body.data;
      expect(recovered.consecutive_errors).toBe(0);
      expect(recovered.last_snapshot_error).toBe('');
      expect(await snapFiles()).toHaveLength(2);
    } finally {
      await server.close();
    }
  });

  it('reports an unwritable directory in the status', async () => {
    const server = await startTestServer({ clock });
    const api = apiClient(server.clusters[0]!);
    try {
      const file = join(dir, 'a-file');
      await writeFile(file, 'x');
      await api.post(`${CONFIG}/broken`, { interval: 1, storage_type: 'local', path_prefix: join(file, 'sub'), local_max_space: 10_000_000 });
      await clock.advance(1000);
      const s = (await api.get(`${STATUS}/broken`)).body.data;
      expect(s.consecutive_errors).toBe(1);
      expect(s.last_snapshot_error).toMatch(/ENOTDIR|not a directory/i);
      expect(s.snapshot_url).toBe('');
      expect(s.snapshot_start).toBe('0001-01-01T00:00:00Z');
    } finally {
      await server.close();
    }
  });

  it('stops the schedule when the configuration is deleted', async () => {
    const server = await startTestServer({ clock });
    const api = apiClient(server.clusters[0]!);
    try {
      await api.post(`${CONFIG}/short-lived`, { interval: 1, retain: 10, storage_type: 'local', path_prefix: dir, local_max_space: 10_000_000 });
      await clock.advance(1000);
      expect(await snapFiles()).toHaveLength(1);
      expect((await api.delete(`${CONFIG}/short-lived`)).status).toBe(204);
      expect(clock.timerCount).toBe(0);
      await clock.advance(2200);
      expect(await snapFiles()).toHaveLength(1);
    } finally {
      await server.close();
    }
  });
});
