/**
 * `lockstep serve --restore` as a process: it serves the restored state, its restored schedule
 * runs, and on SIGTERM it exits promptly (the snapshot timers do not hold it); a corrupt file
 * makes it exit 1 with a one-line error (the built CLI) before listening.
 */
import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../../support/cli.js';
import { apiClient, enableLdap, startTestServer } from '../helpers.js';
import { buildServer } from '../support/build-server.js';
import { NodeChildren } from '../support/node-children.js';
import { ManualClock } from '../../support/manual-clock.js';
import { CONFIG, waitFor } from './support.js';

let build: { dir: string; serveScript: string };
let dir: string;
let snapshotFile: string;
let keysFile: string;
const children = new NodeChildren();

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'lockstep-serve-restore-'));
  const [built] = await Promise.all([buildServer(), makeSnapshot()]);
  build = built;
}, 180_000);
afterAll(async () => {
  children.killAll();
  await rm(dir, { recursive: true, force: true });
  if (build) await rm(build.dir, { recursive: true, force: true });
});

async function makeSnapshot(): Promise<void> {
  const clock = new ManualClock();
  const server = await startTestServer({ clock });
  try {
    const api = apiClient(server.clusters[0]!);
    await enableLdap(api);
    await api.post('auth/ldap/groups/ops', { policies: 'ops,audit' });
    await api.post(`${CONFIG}/tick`, { interval: 1, retain: 3, storage_type: 'local', path_prefix: join(dir, 'out'), local_max_space: 10_000_000 });
    await clock.advance(1000);
    const [file] = (await readdir(join(dir, 'out'))).filter((f) => f.endsWith('.snap'));
    if (file === undefined) throw new Error('the scheduler wrote no snapshot');
    snapshotFile = join(dir, 'source.snap');
    await writeFile(snapshotFile, await readFile(join(dir, 'out', file)));
    // As `serve --init-out` writes it: what opens the snapshot in another server.
    keysFile = join(dir, 'init.json');
    await writeFile(keysFile, JSON.stringify({ clusters: { default: { key_shares: server.clusters[0]!.keyShares, key_threshold: 1 } } }));
  } finally {
    await server.close();
  }
}

function spawnServe(args: string[]) {
  return children.spawn([build.serveScript, 'serve', '--port', '0', ...args]);
}

describe('serve --restore', () => {
  it('serves the restored state, runs its schedule, and exits promptly on SIGTERM', async () => {
    const { child, lines, exited, stderr } = spawnServe(['--restore', snapshotFile, '--restore-keys', keysFile, '--token', 'cli-root']);
    const { value: line } = await lines.next();
    const m = /^cluster default: (\S+) root token: cli-root$/.exec(String(line));
    expect(m, String(line) + stderr()).not.toBeNull();
    const api = apiClient({ name: 'default', port: 0, baseUrl: m![1]!, rootToken: 'cli-root' });
    expect((await api.get('auth/ldap/groups/ops')).body.data).toEqual({ policies: ['audit', 'ops'] });
    expect((await api.list(CONFIG)).body.data.keys).toEqual(['tick']);
    // The one schedule in these tests on the system clock: a `serve` process's (1 s interval).
    await waitFor('a snapshot by the restored schedule', () => stderr().includes('snapshot-auto tick: wrote '));

    const sent = Date.now();
    child.kill('SIGTERM');
    expect(await exited).toBe(0);
    expect(Date.now() - sent).toBeLessThan(5000);
  });

  it('does not start from a snapshot it has no key for, and says which', async () => {
    const res = await runCli(['serve', '--port', '0', '--restore', snapshotFile]);
    expect(res.code).toBe(1);
    expect(res.stderr.trim()).toMatch(/^error: cannot restore snapshot .*source\.snap: it was sealed with the root key of cluster "default" \(key id [0-9a-f]{16}\), which this cluster does not hold: .*--restore-keys.*$/);
    const bad = await runCli(['serve', '--port', '0', '--restore', snapshotFile, '--restore-keys', join(dir, 'nowhere.json')]);
    expect(bad.code).toBe(1);
    expect(bad.stderr.trim()).toMatch(/^error: cannot read --restore-keys .*nowhere\.json: no such file$/);
  });

  it('does not start from a corrupt file', async () => {
    const corrupt = join(dir, 'corrupt.snap');
    const data = await readFile(snapshotFile);
    data[60] = data[60]! ^ 0x01;
    await writeFile(corrupt, data);
    const { exited, stderr } = spawnServe(['--restore', corrupt]);
    expect(await exited).not.toBe(0);
    expect(stderr()).toMatch(/cannot restore snapshot .*corrupt\.snap: checksum mismatch/);
  });

  // The built CLI (`npm test` builds dist/ first).
  it('the built CLI reports a corrupt file as one error line and exits 1', async () => {
    const corrupt = join(dir, 'corrupt-cli.snap');
    await writeFile(corrupt, Buffer.concat([await readFile(snapshotFile), Buffer.from('junk')]));
    const res = await runCli(['serve', '--port', '0', '--restore', corrupt]);
    expect(res.code).toBe(1);
    expect(res.stderr.trim()).toMatch(/^error: cannot restore snapshot .*corrupt-cli\.snap: the checksum trailer is missing: the file is truncated or corrupt$/);
    expect(res.stdout).toBe('');
  });
});
