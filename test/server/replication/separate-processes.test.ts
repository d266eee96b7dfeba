import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp, readFile, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningCluster } from '../../../src/server/index.js';
import { startTestServer } from '../helpers.js';
import { buildServer } from '../support/build-server.js';
import { activationToken, DR, expectNoSecretsIn, inSync, member, operationToken, status, waitFor, type Member } from './support.js';

/**
 * DR replication between separate `serve` processes over loopback HTTP: east runs in a child
 * process (the compiled server) that is killed -9 for an unplanned failover and restarted from
 * its --data; west and south run in this process.
 */
let build: { dir: string; serveScript: string };
let dir: string;
const children = new Set<ChildProcess>();
const secrets = new Set<string>();
const childLogs: string[] = [];

interface Child {
  child: ChildProcess;
  lines: string[];
  exited: Promise<number | null>;
  cluster: RunningCluster;
}

beforeAll(async () => {
  build = await buildServer();
  dir = await mkdtemp(join(tmpdir(), 'lockstep-dr-processes-'));
}, 180_000);
afterAll(async () => {
  for (const child of children) child.kill('SIGKILL');
  await rm(dir, { recursive: true, force: true });
  await rm(build.dir, { recursive: true, force: true });
});

/** `lockstep serve` for cluster east in a child process; resolves once it printed its lines. */
async function serveEast(extra: string[] = []): Promise<Child> {
  const args = [build.serveScript, 'serve', '--port', '0', '--clusters', 'east', '--data', join(dir, 'data'), ...extra];
  const child = spawn(process.execPath, args, { stdio: ['ignore', 'pipe', 'pipe'] });
  children.add(child);
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => (children.delete(child), resolve(code))));
  createInterface({ input: child.stderr }).on('line', (line) => childLogs.push(line));
  const lines: string[] = [];
  const first = await new Promise<string>((resolve, reject) => {
    createInterface({ input: child.stdout }).on('line', (line) => {
      lines.push(line);
      if (lines.length === 1) resolve(line);
    });
    child.once('exit', () => reject(new Error(`serve exited early: ${childLogs.join('\n')}`)));
  });
  const match = /^cluster east: (\S+) root token: (\S+)$/.exec(first);
  if (!match) throw new Error(`unexpected first line: ${first}`);
  secrets.add(match[2]!);
  await new Promise((r) => setTimeout(r, 100)); // the lines printed right after the first
  const cluster: RunningCluster = { name: 'east', port: Number(new URL(match[1]!).port), baseUrl: match[1]!, rootToken: match[2]!, keyShares: [], keyThreshold: 0, initialised: false };
  return { child, lines, exited, cluster };
}

async function kill(c: Child): Promise<void> {
  c.child.kill('SIGKILL');
  await c.exited;
}

describe('DR replication between separate serve processes', () => {
  it('replicates from a primary in another process, fails over when it is killed, and takes it back', async () => {
    const initOut = join(dir, 'init.json');
    let eastProcess = await serveEast(['--key-shares', '3', '--key-threshold', '2', '--init-out', initOut]);
    const init = JSON.parse(await readFile(initOut, 'utf8'));
    expect((await stat(initOut)).mode & 0o777).toBe(0o600);
    const shares: string[] = init.clusters.east.key_shares;
    shares.forEach((s) => secrets.add(s));
    expect(init.clusters.east).toMatchObject({ address: eastProcess.cluster.baseUrl, root_token: eastProcess.cluster.rootToken, key_threshold: 2 });
    expect(eastProcess.lines.slice(1)).toEqual([...shares.map((s, i) => `cluster east: key share ${i + 1} of 3: ${s}`), 'cluster east: key threshold: 2']);

    const local = await startTestServer({ clusters: ['west', 'south'] });
    try {
      const [west, south] = local.clusters.map(member) as [Member, Member];
      let east = member(eastProcess.cluster);
      expect((await east.api.post('sys/auth/ldap', { type: 'ldap' })).status).toBe(204);
      expect((await east.api.post(`${DR}/primary/enable`, {})).status).toBe(204);
      for (const m of [west, south]) {
        const t = await activationToken(east, m.name);
        secrets.add(t);
        expect((await m.api.post(`${DR}/secondary/enable`, { token: t })).status).toBe(204);
        await inSync(east, m);
      }
      const started = Date.now();
      expect((await east.api.post('auth/ldap/groups/from-east', { policies: ['a'] })).status).toBe(204);
      await Promise.all([inSync(east, west, 1_000), inSync(east, south, 1_000)]);
      expect(Date.now() - started).toBeLessThan(1_000);
      const setId = (await status(east)).cluster_id;

      // Unplanned failover: east dies; west passes the safety checks (east unreachable) without force.
      await kill(eastProcess);
      await waitFor('west notices', async () => ((await status(west)).connection_state === 'transient_failure' ? true : undefined));
      const westOp = await operationToken(west, shares, secrets);
      expect((await west.anon.post(`${DR}/secondary/promote`, { dr_operation_token: westOp })).status).toBe(204);
      await west.anon.post(`${DR}/secondary/operation-token/delete`, { dr_operation_token: westOp });
      expect(await status(west)).toMatchObject({ mode: 'primary', cluster_id: setId });
      const southOp = await operationToken(south, shares, secrets);
      const southToken = await activationToken(west, 'south');
      secrets.add(southToken);
      expect((await south.anon.post(`${DR}/secondary/update-primary`, { dr_operation_token: southOp, token: southToken })).status).toBe(204);
      await south.anon.post(`${DR}/secondary/operation-token/delete`, { dr_operation_token: southOp });
      expect((await west.api.post('auth/ldap/groups/from-west', { policies: ['b'] })).status).toBe(204);
      await inSync(west, south, 1_000);

      // East comes back from its --data still primary (as the service does); no shares printed again.
      eastProcess = await serveEast();
      expect(eastProcess.lines).toHaveLength(1);
      east = member(eastProcess.cluster);
      const back = await status(east);
      expect(back).toMatchObject({ mode: 'primary', cluster_id: setId, known_secondaries: ['south', 'west'] });
      expect(back.secondaries.every((s: any) => s.connection_status === 'disconnected')).toBe(true);

      // It is demoted and re-pointed at west with no wipe, its token encrypted to its public key.
      expect((await east.api.post(`${DR}/primary/demote`, {})).status).toBe(204);
      const eastOp = await operationToken(east, shares, secrets);
      const key = (await east.anon.post(`${DR}/secondary/generate-public-key`, {})).body.data.public_key;
      const eastToken = await activationToken(west, 'east', { secondary_public_key: key });
      secrets.add(eastToken);
      expect((await east.anon.post(`${DR}/secondary/update-primary`, { dr_operation_token: eastOp, token: eastToken })).status).toBe(204);
      await east.anon.post(`${DR}/secondary/operation-token/delete`, { dr_operation_token: eastOp });
      await inSync(west, east);

      // A secondary killed and restarted resumes from its --data: merkle-sync, then stream-wals.
      await kill(eastProcess);
      expect((await west.api.post('auth/ldap/groups/while-east-down', { policies: ['c'] })).status).toBe(204);
      eastProcess = await serveEast();
      east = member(eastProcess.cluster);
      expect((await status(east)).mode).toBe('secondary');
      await inSync(west, east);
      await waitFor('west sees east connected', async () =>
        (await status(west)).secondaries.find((s: any) => s.node_id === 'east' && s.connection_status === 'connected' && s.api_address === new URL(east.cluster.baseUrl).origin)
          ? true
          : undefined,
      );

      // force skips the safety checks: south is promoted although west is a reachable primary.
      const forceOp = await operationToken(south, shares, secrets);
      const refused = await south.anon.post(`${DR}/secondary/promote`, { dr_operation_token: forceOp });
      expect(refused.body.errors[0]).toMatch(/^safety checks failed/);
      expect((await south.anon.post(`${DR}/secondary/promote`, { dr_operation_token: forceOp, force: true })).status).toBe(204);
      expect((await status(south)).mode).toBe('primary');
      expect((await south.api.post(`${DR}/primary/demote`, {})).status).toBe(204);
      await south.anon.post(`${DR}/secondary/operation-token/delete`, { dr_operation_token: forceOp });
      await kill(eastProcess);
      expectNoSecretsIn(local.logs, secrets);
    } finally {
      await local.close();
    }
    expectNoSecretsIn(childLogs, secrets);
  }, 60_000);
});
