import { createHash } from 'node:crypto';
import { mkdtemp, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startServer } from '../../src/server/index.js';
import { Barrier } from '../../src/server/storage/barrier.js';
import { CHAIN_START, recordAad } from '../../src/server/storage/file-journal.js';
import { decodeRecords, encodeRecord } from '../../src/server/storage/record-codec.js';
import { apiClient } from './helpers.js';

let dataDir: string;
beforeEach(async () => {
  dataDir = await mkdtemp(join(tmpdir(), 'lockstep-data-'));
});
afterEach(() => rm(dataDir, { recursive: true, force: true }));

describe('--data persistence', () => {
  it('keeps state, cluster id and root token across a restart', async () => {
    const first = await startServer({ port: 0, dataDir, clusters: ['east', 'west'] });
    const east = apiClient(first.clusters[0]!);
    await east.post('sys/auth/ldap', { type: 'ldap' });
    await east.post('auth/ldap/config', { url: 'ldaps://dir.example.com', bindpass: 'kept-secret' });
    await east.post('auth/ldap/users/alice', { policies: 'dev', groups: 'admins' });
    await east.post('sys/mounts/pki', { type: 'pki', config: { allowed_managed_keys: ['k'] } });
    const token = await first.mintToken({ cluster: 'east', policies: ['default'] });
    const id = (await east.get('sys/health')).body.cluster_id;
    const roots = first.clusters.map((c) => c.rootToken);
    await first.close();

    const second = await startServer({ port: 0, dataDir, clusters: ['east', 'west'] });
    try {
      expect(second.clusters.map((c) => c.rootToken)).toEqual(roots);
      const again = apiClient(second.clusters[0]!);
      expect((await again.get('sys/health')).body.cluster_id).toBe(id);
      expect((await again.get('auth/ldap/config')).body.data.url).toBe('ldaps://dir.example.com');
      expect((await again.get('auth/ldap/users/alice')).body.data).toEqual({ groups: 'admins', policies: ['dev'] });
      expect((await again.get('sys/mounts/pki/tune')).body.data.allowed_managed_keys).toEqual(['k']);
      expect((await apiClient(second.clusters[0]!, token).get('auth/token/lookup-self')).status).toBe(200);
      // The west cluster has its own, untouched state.
      expect((await apiClient(second.clusters[1]!).get('auth/ldap/config')).status).toBe(404);
    } finally {
      await second.close();
    }
  });

  it('holds no secret it was given in any file of the data directory', async () => {
    const CANARY = 'canary-data-dir-5b1d';
    const server = await startServer({ port: 0, dataDir, clusters: ['east'] });
    const east = apiClient(server.clusters[0]!);
    await east.post('sys/auth/ldap', { type: 'ldap' });
    await east.post('auth/ldap/config', { url: 'ldaps://dir.example.com', bindpass: `${CANARY}-bindpass` });
    expect((await east.get('auth/ldap/config')).body.data.url).toBe('ldaps://dir.example.com');
    // Enough writes for a compaction too.
    for (let i = 0; i < 200; i++) await east.post(`auth/ldap/users/u${i}`, { policies: `${CANARY}-${'p'.repeat(200)}` });
    await server.close();
    const files = (await readdir(dataDir, { recursive: true, withFileTypes: true })).filter((e) => e.isFile());
    expect(files.map((f) => f.name)).toContain('store.log');
    for (const f of files) {
      const text = await readFile(join(f.parentPath ?? f.path, f.name));
      expect(text.includes(CANARY), f.name).toBe(false);
    }
    const again = await startServer({ port: 0, dataDir, clusters: ['east'] });
    try {
      const api = apiClient(again.clusters[0]!);
      expect((await api.get('auth/ldap/config')).body.data.url).toBe('ldaps://dir.example.com');
      // The canary was on disk, sealed: it reads back.
      expect((await api.get('auth/ldap/users/u199')).body.data.policies[0]).toContain(CANARY);
    } finally {
      await again.close();
    }
  });

  it('#13.11: refuses a data directory an earlier version wrote (its log in clear), naming the file, and changes nothing', async () => {
    const CANARY = 'canary-upgrade-3c8d';
    const first = await startServer({ port: 0, dataDir, rootToken: 'r' });
    const api = apiClient(first.clusters[0]!);
    await api.post('sys/auth/ldap', { type: 'ldap' });
    await api.post('auth/ldap/groups/legacy', { policies: CANARY });
    await first.close();

    // Turn it into what an earlier version left: an identity without a storage key, a log in clear.
    const identityFile = join(dataDir, 'default', 'cluster.json');
    const logFile = join(dataDir, 'default', 'store.log');
    const identity = JSON.parse(await readFile(identityFile, 'utf8'));
    const barrier = new Barrier(Buffer.from(identity.storage_key, 'hex'));
    let chain = CHAIN_START;
    const clear = decodeRecords(await readFile(logFile)).payloads.map((p) => {
      const plain = barrier.open(p, recordAad(chain))!;
      chain = createHash('sha256').update(p).digest();
      return encodeRecord(plain);
    });
    await writeFile(logFile, Buffer.concat(clear));
    delete identity.storage_key;
    await writeFile(identityFile, JSON.stringify(identity));
    const before = await readFile(logFile);
    expect(before.includes(CANARY)).toBe(true);

    await expect(startServer({ port: 0, dataDir })).rejects.toThrow(`${logFile} was written by an earlier version of lockstep (records in clear); this version does not read it`);
    expect((await readFile(logFile)).equals(before)).toBe(true);
    // The lock was released: the directory can be used once the old log is moved away.
    await rm(logFile);
    const fresh = await startServer({ port: 0, dataDir });
    await fresh.close();
  });

  it('lets --token replace the stored root token', async () => {
    const first = await startServer({ port: 0, dataDir });
    const old = first.clusters[0]!.rootToken;
    await first.close();
    const second = await startServer({ port: 0, dataDir, rootToken: 'new-root' });
    try {
      expect(second.clusters[0]!.rootToken).toBe('new-root');
      expect((await apiClient(second.clusters[0]!, old).get('sys/auth')).status).toBe(403);
    } finally {
      await second.close();
    }
    const third = await startServer({ port: 0, dataDir });
    expect(third.clusters[0]!.rootToken).toBe('new-root');
    await third.close();
  });

  it('keeps the data directory private and refuses a second server on it', async () => {
    const first = await startServer({ port: 0, dataDir });
    try {
      expect((await stat(join(dataDir, 'default', 'cluster.json'))).mode & 0o777).toBe(0o600);
      await expect(startServer({ port: 0, dataDir })).rejects.toThrow(/in use/);
    } finally {
      await first.close();
    }
  });

  it('keeps nothing without --data', async () => {
    const first = await startServer({ port: 0, rootToken: 'r' });
    await apiClient(first.clusters[0]!).post('sys/auth/ldap', { type: 'ldap' });
    await first.close();
    const second = await startServer({ port: 0, rootToken: 'r' });
    expect(Object.keys((await apiClient(second.clusters[0]!).get('sys/auth')).body.data)).toEqual(['token/']);
    await second.close();
  });
});
