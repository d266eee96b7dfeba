import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer } from '../../src/server/index.js';
import { Barrier } from '../../src/server/storage/barrier.js';
import { KvStore } from '../../src/server/storage/kv-store.js';
import { apiClient } from './helpers.js';
import { buildServer } from './support/build-server.js';
import { NodeChildren, nextLine } from './support/node-children.js';

/**
 * Durability under kill -9: a child process (the compiled server) takes writes until it is
 * killed at a random moment (after a random number of acknowledged writes, with more in
 * flight: progress, not time, so a busy machine still kills mid-stream); every write it
 * acknowledged must be there after a restart.
 */
let build: { dir: string; serveScript: string };
let dataDir: string;
const children = new NodeChildren();

beforeAll(async () => {
  build = await buildServer();
  dataDir = await mkdtemp(join(tmpdir(), 'lockstep-crash-'));
}, 120_000);
afterAll(async () => {
  children.killAll();
  await rm(dataDir, { recursive: true, force: true });
  await rm(build.dir, { recursive: true, force: true });
});

const spawnNode = (args: string[]) => children.spawn(args);

const randomCount = (min: number, max: number) => min + Math.floor(Math.random() * (max - min));

/** A promise resolved by the `target`-th call of `count()`. */
function countdown(target: number): { count: () => void; reached: Promise<void> } {
  let seen = 0;
  let resolve!: () => void;
  const reached = new Promise<void>((r) => (resolve = r));
  return { count: () => void (++seen === target && resolve()), reached };
}

describe('lockstep serve under kill -9', () => {
  it('keeps every acknowledged write across repeated kills', async () => {
    const acked = new Map<string, string>();
    let next = 0;
    for (let round = 0; round < 3; round++) {
      const { child, lines, exited } = spawnNode([build.serveScript, 'serve', '--port', '0', '--data', dataDir, '--token', 'crash-root']);
      const line = await nextLine(lines);
      const match = /^cluster default: (\S+) root token: (\S+)$/.exec(line);
      expect(match, line).not.toBeNull();
      const cluster = { name: 'default', port: 0, baseUrl: match![1]!, rootToken: match![2]! };
      expect(cluster.rootToken).toBe('crash-root');
      const api = apiClient(cluster);
      if (round === 0) expect((await api.post('sys/auth/ldap', { type: 'ldap' })).status).toBe(204);

      let killed = false;
      const acks = countdown(randomCount(10, 150));
      const worker = async () => {
        while (!killed) {
          const n = next++;
          const policies = [`p${n}`, `round${round}`];
          try {
            const res = await api.post(`auth/ldap/groups/g${n}`, { policies });
            if (res.status === 204) {
              acked.set(`g${n}`, policies.join(','));
              acks.count();
            }
          } catch {
            return; // the connection died with the server
          }
        }
      };
      const workers = Array.from({ length: 8 }, worker);
      await Promise.race([acks.reached, exited]);
      killed = true;
      child.kill('SIGKILL');
      await exited;
      await Promise.all(workers);
    }
    expect(acked.size).toBeGreaterThan(20);

    const server = await startServer({ port: 0, dataDir, rootToken: 'crash-root' });
    try {
      const api = apiClient(server.clusters[0]!);
      for (const [name, policies] of acked) {
        const res = await api.get(`auth/ldap/groups/${name}`);
        expect(res.status, name).toBe(200);
        expect(res.body.data.policies.join(','), name).toBe(policies.split(',').sort().join(','));
      }
      const listed = await api.list('auth/ldap/groups');
      expect(listed.body.data.keys.length).toBeGreaterThanOrEqual(acked.size);
    } finally {
      await server.close();
    }
  });

  it('keeps acknowledged store writes when killed during compactions', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'lockstep-crash-store-'));
    try {
      // Writes as fast as possible with a tiny compaction threshold, printing each acknowledged index.
      const script = join(build.dir, 'store-writer.mjs');
      await writeFile(
        script,
        [
          "import { KvStore } from './out/server/storage/kv-store.js';",
          "import { Barrier } from './out/server/storage/barrier.js';",
          "const barrier = new Barrier(Buffer.from(process.argv[3], 'hex'));",
          'const { store } = await KvStore.open({ dir: process.argv[2], barrier }, { compactAfterBytes: 2048 });',
          "process.stdout.write('ready\\n');",
          'let n = store.index;',
          'const worker = async () => { for (;;) { const i = ++n; await store.put(`k${i % 97}`, { i, pad: "y".repeat(i % 300) }); process.stdout.write(`${i}\\n`); } };',
          'for (let w = 0; w < 8; w++) worker();',
        ].join('\n'),
      );
      const storageKey = Barrier.newKey();
      const latest = new Map<string, number>();
      for (let round = 0; round < 4; round++) {
        const { child, lines, exited } = spawnNode([script, dir, storageKey.toString('hex')]);
        expect(await nextLine(lines)).toBe('ready');
        const acks = countdown(randomCount(20, 500));
        const reading = (async () => {
          for await (const line of { [Symbol.asyncIterator]: () => lines }) {
            const i = Number(line);
            if (!Number.isInteger(i)) continue;
            const key = `k${i % 97}`;
            latest.set(key, Math.max(latest.get(key) ?? 0, i));
            acks.count();
          }
        })();
        await Promise.race([acks.reached, exited]);
        child.kill('SIGKILL');
        await exited;
        await reading;
      }
      const { store } = await KvStore.open({ dir, barrier: new Barrier(storageKey) });
      try {
        expect(latest.size).toBeGreaterThan(0);
        for (const [key, i] of latest) {
          const value = store.get(key) as { i: number } | undefined;
          expect(value, key).toBeDefined();
          // Acknowledged writes are durable: the key holds that write or a later one.
          expect(value!.i, key).toBeGreaterThanOrEqual(i);
        }
      } finally {
        await store.close();
      }
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});

describe('lockstep serve', () => {
  it('prints every cluster, serves, and exits cleanly on SIGTERM keeping its data', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'lockstep-serve-'));
    try {
      const start = () => spawnNode([build.serveScript, 'serve', '--port', '0', '--clusters', 'east,west', '--data', dir]);
      const first = start();
      const lines = [await nextLine(first.lines), await nextLine(first.lines)];
      expect(lines[0]).toMatch(/^cluster east: http:\/\/127\.0\.0\.1:\d+\/v1 root token: \S+$/);
      expect(lines[1]).toMatch(/^cluster west: http:\/\/127\.0\.0\.1:\d+\/v1 root token: \S+$/);
      const [, url, token] = /^cluster east: (\S+) root token: (\S+)$/.exec(lines[0]!)!;
      const api = apiClient({ name: 'east', port: 0, baseUrl: url!, rootToken: token! });
      expect((await api.get('sys/health')).status).toBe(200);
      expect((await api.post('sys/auth/ldap', { type: 'ldap' })).status).toBe(204);
      first.child.kill('SIGTERM');
      expect(await first.exited).toBe(0);

      // Restarted on the same data without --token: same root token, same data.
      const second = start();
      const again = await nextLine(second.lines);
      expect(again.endsWith(`root token: ${token}`)).toBe(true);
      const [, url2] = /^cluster east: (\S+) /.exec(again)!;
      const api2 = apiClient({ name: 'east', port: 0, baseUrl: url2!, rootToken: token! });
      expect(Object.keys((await api2.get('sys/auth')).body.data)).toContain('ldap/');
      second.child.kill('SIGINT');
      expect(await second.exited).toBe(0);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
