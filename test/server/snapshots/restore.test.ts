/**
 * `startServer({ restore })`: a cluster started from a snapshot the scheduler wrote answers
 * exactly as the snapshotted one (LDAP config, groups, users, mounts, tokens, snapshot
 * configurations; the whole store, compared entry by entry); corrupt or missing files are
 * refused before anything starts; with a data directory the restore replaces its state
 * durably; with several clusters it goes to the one named.
 */
import { createHash } from 'node:crypto';
import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer } from '../../../src/server/index.js';
import { decodeSnapshot, encodeSnapshot } from '../../../src/server/snapshots/format.js';
import { snapshotKeyFromShares, type SnapshotKey } from '../../../src/server/snapshots/snapshot-key.js';
import { ManualClock } from '../../support/manual-clock.js';
import { apiClient, enableLdap, startTestServer, type ApiClient } from '../helpers.js';
import { CONFIG, STATUS } from './support.js';

let dir: string;
let snapshotFile: string;
let original: Awaited<ReturnType<typeof capture>>;
let mintedToken: string;
/** The key shares of the cluster that took the snapshot, and the key they give. */
let sourceShares: string[];
let sourceKey: SnapshotKey;
const BINDPASS = 'canary-snapshot-bindpass-91c2';
const keyOf = async (server: { clusters: Array<{ keyShares: string[] }> }) => (await snapshotKeyFromShares(server.clusters[0]!.keyShares))!;

/** Everything a client can read of the state this test sets up. */
async function capture(api: ApiClient) {
  const data = async (path: string) => {
    const r = await api.get(path);
    return { status: r.status, data: r.body?.data, warnings: r.body?.warnings };
  };
  const groups = (await api.list('auth/ldap/groups')).body.data.keys as string[];
  const users = (await api.list('auth/ldap/users')).body.data.keys as string[];
  return {
    ldapConfig: await data('auth/ldap/config'),
    corpConfig: await data('auth/corp/config'),
    groups: Object.fromEntries(await Promise.all(groups.map(async (g) => [g, await data(`auth/ldap/groups/${g}`)]))),
    users: Object.fromEntries(await Promise.all(users.map(async (u) => [u, await data(`auth/ldap/users/${u}`)]))),
    auth: await data('sys/auth'),
    pkiTune: await data('sys/mounts/pki/tune'),
    snapshotConfigs: (await api.list(CONFIG)).body.data.keys,
    snapshotConfig: await data(`${CONFIG}/nightly`),
  };
}

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'lockstep-restore-'));
  const clock = new ManualClock();
  const server = await startTestServer({ clock });
  try {
    const api = apiClient(server.clusters[0]!);
    sourceShares = server.clusters[0]!.keyShares;
    sourceKey = await keyOf(server);
    await enableLdap(api);
    await enableLdap(api, 'corp');
    await api.post('auth/ldap/config', { url: 'ldaps://dir.example.com', binddn: 'cn=svc,dc=example', bindpass: BINDPASS, userdn: 'ou=people', token_policies: 'base', token_ttl: '1h' });
    await api.post('auth/corp/config', { url: 'ldap://corp.example.com', case_sensitive_names: true });
    await api.post('auth/ldap/groups/admins', { policies: 'admin,ops' });
    await api.post('auth/ldap/groups/dev', { policies: 'dev' });
    await api.post('auth/ldap/users/alice', { policies: 'dev', groups: 'admins,dev' });
    await api.post('auth/ldap/users/bob', { groups: 'dev' });
    await api.post('sys/mounts/pki', { type: 'pki', config: { allowed_managed_keys: ['hsm-key'] } });
    mintedToken = await server.mintToken({ policies: ['default', 'reader'] });
    await api.post(`${CONFIG}/nightly`, { interval: '24h', storage_type: 'local', path_prefix: join(dir, 'nightly'), local_max_space: 1_000_000 });
    // The configuration that takes the snapshot, last: the snapshot holds every write above.
    await api.post(`${CONFIG}/now`, { interval: 1, retain: 5, storage_type: 'local', path_prefix: dir, local_max_space: 10_000_000 });
    original = await capture(api);
    await clock.advance(1000);
    expect((await readdir(dir)).filter((f) => f.endsWith('.snap'))).toHaveLength(1);
  } finally {
    await server.close();
  }
  const first = (await readdir(dir)).filter((f) => f.endsWith('.snap')).sort()[0]!;
  snapshotFile = join(dir, 'restore-me.snap');
  await writeFile(snapshotFile, await readFile(join(dir, first)));
});
afterAll(() => rm(dir, { recursive: true, force: true }));

describe('restore from a snapshot', () => {
  it('holds no secret and no name in clear: the entries are sealed', async () => {
    const data = await readFile(snapshotFile);
    for (const text of [BINDPASS, 'alice', 'admins', 'dir.example.com', 'auth/ldap']) expect(data.includes(text), text).toBe(false);
    const opened = decodeSnapshot(data, [sourceKey]);
    expect(JSON.stringify(opened.entries)).toContain(BINDPASS);
  });

  it('answers exactly as the snapshotted cluster, store entry by entry', async () => {
    const clock = new ManualClock();
    const server = await startTestServer({ restore: snapshotFile, restoreKeys: [sourceShares], clock });
    try {
      const api = apiClient(server.clusters[0]!);
      expect(await capture(api)).toEqual(original);
      expect(original.groups).toHaveProperty('admins');
      expect(original.users.alice.data).toEqual({ groups: 'admins,dev', policies: ['dev'] });
      // Tokens live in the store: one made before the snapshot works after the restore.
      const self = await apiClient(server.clusters[0]!, mintedToken).get('auth/token/lookup-self');
      expect(self.status).toBe(200);
      expect(self.body.data.policies).toEqual(['default', 'reader']);
      // The restored schedule runs: its next snapshot holds exactly the restored entries.
      const restored = decodeSnapshot(await readFile(snapshotFile), [sourceKey]);
      const before = new Set(await readdir(dir));
      await clock.advance(1000);
      const [next] = (await readdir(dir)).filter((f) => f.endsWith('.snap') && !before.has(f));
      expect(next).toBeDefined();
      // Sealed with the restored cluster's own root key: it keeps its own identity.
      const again = decodeSnapshot(await readFile(join(dir, next!)), [await keyOf(server)]);
      expect(again.entries).toEqual(restored.entries);
      expect(again.header.index).toBeGreaterThanOrEqual(restored.header.index);
      expect((await api.get(`${STATUS}/nightly`)).body.data.last_snapshot_error).toBe('');
    } finally {
      await server.close();
    }
  });

  it('keeps the cluster its own identity', async () => {
    const restored = decodeSnapshot(await readFile(snapshotFile), [sourceKey]);
    const server = await startTestServer({ restore: snapshotFile, restoreKeys: [sourceShares], rootToken: 'restored-root' });
    try {
      const health = (await apiClient(server.clusters[0]!).get('sys/health')).body;
      expect(health.cluster_id).not.toBe(restored.header.cluster_id);
      expect(server.clusters[0]!.rootToken).toBe('restored-root');
    } finally {
      await server.close();
    }
  });

  it('refuses corrupt, truncated, foreign and missing files before starting anything', async () => {
    const good = await readFile(snapshotFile);
    const flipped = Buffer.from(good);
    flipped[Math.floor(good.length / 2)] = flipped[Math.floor(good.length / 2)]! ^ 0x20;
    const cases: Array<[string, Buffer | undefined, RegExp]> = [
      ['flipped.snap', flipped, /cannot restore snapshot .*flipped\.snap: checksum mismatch/],
      ['truncated.snap', good.subarray(0, good.length - 30), /cannot restore snapshot .*truncated\.snap: the checksum trailer is missing/],
      ['foreign.snap', Buffer.from('hello'), /not a lockstep snapshot/],
      ['missing.snap', undefined, /cannot read snapshot .*missing\.snap: no such file/],
    ];
    for (const [name, content, message] of cases) {
      const file = join(dir, name);
      if (content) await writeFile(file, content);
      await expect(startServer({ port: 0, restore: file, restoreKeys: [sourceShares] })).rejects.toThrow(message);
    }
    await expect(startServer({ port: 0, restore: { nowhere: snapshotFile } })).rejects.toThrow(/cannot restore into cluster "nowhere": no such cluster/);
  });

  it('refuses a snapshot sealed by another cluster without its key shares, naming what is needed', async () => {
    const needsKeys = /cannot restore snapshot .*restore-me\.snap: it was sealed with the root key of cluster "default" \(key id [0-9a-f]{16}\), which this cluster does not hold: .*--restore-keys/;
    await expect(startServer({ port: 0, restore: snapshotFile })).rejects.toThrow(needsKeys);
    const other = await startServer({ port: 0 });
    const otherShares = other.clusters[0]!.keyShares;
    await other.close();
    await expect(startServer({ port: 0, restore: snapshotFile, restoreKeys: [otherShares] })).rejects.toThrow(needsKeys);
    await expect(startServer({ port: 0, restore: snapshotFile, restoreKeys: [['not a share!']] })).rejects.toThrow(/restore key set 1 holds a share that is not hex or base64/);
  });

  it('#13.11: refuses a snapshot whose header was rewritten (index, cluster_name), checksum made to match, naming the file', async () => {
    const text = (await readFile(snapshotFile)).toString('utf8');
    const lines = text.slice(0, text.lastIndexOf('sha256:')).split('\n');
    for (const edit of [{ index: 1_000_000 }, { cluster_name: 'prod-east' }]) {
      const forgedLines = [...lines];
      forgedLines[1] = JSON.stringify({ ...JSON.parse(lines[1]!), ...edit });
      const body = forgedLines.join('\n');
      const forged = join(dir, 'forged-header.snap');
      await writeFile(forged, body + `sha256:${createHash('sha256').update(body).digest('hex')}\n`);
      await expect(startServer({ port: 0, restore: forged, restoreKeys: [sourceShares] })).rejects.toThrow(
        `cannot restore snapshot ${forged}: the header does not match the sealed entries: a header field was rewritten, or the file is corrupt`,
      );
    }
  });

  it("opens a snapshot of the cluster's own data directory without being given keys, and serves what it held", async () => {
    const dataDir = await mkdtemp(join(tmpdir(), 'lockstep-restore-own-'));
    try {
      const first = await startServer({ port: 0, dataDir });
      const ownKey = await keyOf(first);
      await first.close();
      // The source's entries, sealed with this cluster's own root key.
      const { header, entries } = decodeSnapshot(await readFile(snapshotFile), [sourceKey]);
      const file = join(dir, 'own.snap');
      await writeFile(file, encodeSnapshot({ index: header.index, entries }, { name: 'default', id: 'x' }, new Date(), ownKey));
      const restored = await startServer({ port: 0, dataDir, restore: file });
      try {
        expect(await capture(apiClient(restored.clusters[0]!))).toEqual(original);
      } finally {
        await restored.close();
      }
    } finally {
      await rm(dataDir, { recursive: true, force: true });
    }
  });

  it('replaces the state of a data directory, durably; a refused restore leaves it untouched', async () => {
    const dataDir = await mkdtemp(join(tmpdir(), 'lockstep-restore-data-'));
    try {
      const first = await startServer({ port: 0, dataDir });
      const api1 = apiClient(first.clusters[0]!);
      await enableLdap(api1);
      await api1.post('auth/ldap/groups/other', { policies: 'x' });
      await first.close();

      const corrupt = join(dir, 'corrupt-for-data.snap');
      await writeFile(corrupt, Buffer.concat([await readFile(snapshotFile), Buffer.from('x')]));
      await expect(startServer({ port: 0, dataDir, restore: corrupt, restoreKeys: [sourceShares] })).rejects.toThrow(/cannot restore snapshot/);
      const untouched = await startServer({ port: 0, dataDir });
      expect((await apiClient(untouched.clusters[0]!).get('auth/ldap/groups/other')).status).toBe(200);
      await untouched.close();

      const restored = await startServer({ port: 0, dataDir, restore: snapshotFile, restoreKeys: [sourceShares] });
      expect((await apiClient(restored.clusters[0]!).get('auth/ldap/groups/other')).status).toBe(404);
      await restored.close();

      const reopened = await startServer({ port: 0, dataDir });
      try {
        const api = apiClient(reopened.clusters[0]!);
        expect((await api.get('auth/ldap/groups/other')).status).toBe(404);
        expect(await capture(api)).toEqual(original);
      } finally {
        await reopened.close();
      }
    } finally {
      await rm(dataDir, { recursive: true, force: true });
    }
  });

  it('restores into the cluster named, the others start empty', async () => {
    const server = await startServer({ port: 0, clusters: ['east', 'west'], restore: { west: snapshotFile }, restoreKeys: [sourceShares] });
    try {
      const [east, west] = server.clusters.map((c) => apiClient(c));
      expect(await capture(west!)).toEqual(original);
      expect((await east!.get('auth/ldap/config')).status).toBe(404);
      expect((await east!.list(CONFIG)).status).toBe(404);
    } finally {
      await server.close();
    }
  });
});
