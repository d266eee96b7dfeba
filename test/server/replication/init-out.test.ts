import { mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServing } from '../../../src/commands/serve.js';
import { startServer } from '../../../src/server/index.js';
import { parseShare, sharesOpen } from '../../../src/server/replication/root-key.js';

/** Initialisation: root key shares made at first start, kept with --data, written by --init-out. */
let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'lockstep-init-out-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

const rootKeyOf = async (dataDir: string, cluster: string): Promise<string> =>
  JSON.parse(await readFile(join(dataDir, cluster, 'cluster.json'), 'utf8')).root_key;

describe('root key shares and --init-out', () => {
  it('writes each cluster address, root token and shares (mode 0600); the shares rebuild the root key', async () => {
    const dataDir = join(dir, 'data');
    const initOut = join(dir, 'init.json');
    await writeFile(initOut, 'old', { mode: 0o644 });
    const server = await startServer({ port: 0, clusters: ['east', 'west'], dataDir, keyShares: 5, keyThreshold: 3, initOut });
    let first: Record<string, string[]>;
    try {
      expect((await stat(initOut)).mode & 0o777).toBe(0o600);
      const content = JSON.parse(await readFile(initOut, 'utf8'));
      expect(Object.keys(content)).toEqual(['clusters']);
      for (const c of server.clusters) {
        expect(c.initialised).toBe(true);
        expect(content.clusters[c.name]).toEqual({ address: c.baseUrl, root_token: c.rootToken, key_shares: c.keyShares, key_threshold: 3 });
        expect(c.keyShares).toHaveLength(5);
        for (const s of c.keyShares) expect(s).toMatch(/^[0-9a-f]{66}$/);
      }
      first = Object.fromEntries(server.clusters.map((c) => [c.name, c.keyShares]));
      expect(first['east']).not.toEqual(first['west']);
    } finally {
      await server.close();
    }

    const eastKey = await rootKeyOf(dataDir, 'east');
    const east = first['east']!.map((s) => parseShare(s)!);
    expect(await sharesOpen([east[4]!, east[0]!, east[2]!], eastKey, 3)).toBe(true);
    expect(await sharesOpen([east[1]!, east[3]!], eastKey, 2)).toBe(false);
    expect(await sharesOpen(first['west']!.slice(0, 3).map((s) => parseShare(s)!), eastKey, 3)).toBe(false);

    // A restart keeps the shares (other split options are ignored) and is no initialisation.
    const again = await startServer({ port: 0, clusters: ['east', 'west'], dataDir, keyShares: 1, initOut });
    try {
      for (const c of again.clusters) {
        expect(c.initialised).toBe(false);
        expect(c.keyShares).toEqual(first[c.name]);
      }
      expect(JSON.parse(await readFile(initOut, 'utf8')).clusters.east.key_shares).toEqual(first['east']);
    } finally {
      await again.close();
    }
  });

  it('refuses a split the service refuses, before starting anything', async () => {
    await expect(startServer({ port: 0, keyShares: 3, keyThreshold: 1 })).rejects.toThrow('invalid key shares: threshold must be greater than one for multiple shares');
    await expect(startServer({ port: 0, keyShares: 2, keyThreshold: 3 })).rejects.toThrow(/cannot be larger/);
  });

  it('serve prints the shares once, at the first start only', async () => {
    const dataDir = join(dir, 'printed');
    const flags = { port: 0, clusters: ['east'], host: '127.0.0.1', data: dataDir, keyShares: 2, keyThreshold: 2 };
    const lines: string[] = [];
    const server = await startServing(flags, (line) => lines.push(line));
    const [c] = server.clusters;
    await server.close();
    expect(lines).toEqual([
      `cluster east: ${c!.baseUrl} root token: ${c!.rootToken}`,
      `cluster east: key share 1 of 2: ${c!.keyShares[0]}`,
      `cluster east: key share 2 of 2: ${c!.keyShares[1]}`,
      'cluster east: key threshold: 2',
    ]);
    const later: string[] = [];
    const restarted = await startServing(flags, (line) => later.push(line));
    await restarted.close();
    expect(later).toHaveLength(1);
    expect(later[0]).toMatch(/^cluster east: \S+ root token: \S+$/);
  });

  it('defaults to one share with threshold one, in memory too', async () => {
    const server = await startServer({ port: 0 });
    try {
      const [c] = server.clusters;
      expect(c!.keyShares).toHaveLength(1);
      expect(c!.keyThreshold).toBe(1);
      expect(c!.initialised).toBe(true);
    } finally {
      await server.close();
    }
  });
});
