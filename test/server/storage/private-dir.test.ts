// `lockstep serve --data DIR` keeps its data owner-only: every directory it makes 0700, every
// file 0600, whatever the umask; and it refuses to start on a data directory other users can
// write. Through the built CLI, as a user runs it.
import { spawn, type ChildProcess } from 'node:child_process';
import { chmod, mkdir, readdir, stat } from 'node:fs/promises';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterEach, describe, expect, test } from 'vitest';
import { ROOT } from '../../support/cli.js';
import { useTempTrees } from '../../support/temp-tree.js';

const tree = useTempTrees();
const CLI = join(ROOT, 'dist', 'cli.js');
const running: ChildProcess[] = [];
afterEach(async () => {
  await Promise.all(running.splice(0).map(stop));
});

function stop(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    child.once('exit', () => resolve());
    child.kill('SIGTERM');
  });
}

/** `umask U; lockstep serve ARGS`: resolves with each cluster's base URL once all are up, or with the exit code and stderr when it ends first. */
function serve(umask: string, args: string[]): Promise<{ urls: string[] } | { code: number; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn('bash', ['-c', `umask ${umask}; exec "$NODE" "$CLI" serve --port 0 "$@"`, 'serve', ...args], {
      env: { PATH: process.env['PATH'] ?? '', HOME: process.env['HOME'] ?? '/tmp', NODE: process.execPath, CLI },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    running.push(child);
    const clusters = (args[args.indexOf('--clusters') + 1] ?? 'default').split(',');
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => {
      stdout += d.toString();
      const urls = [...stdout.matchAll(/^cluster \S+: (http:\/\/\S+) root token/gm)].map((m) => m[1]!);
      if (urls.length === clusters.length) resolve({ urls });
    });
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    child.on('error', reject);
    child.on('exit', (code) => resolve({ code: code ?? -1, stderr }));
  });
}

/** Mode (permission bits) of every directory and file below `dir`, `dir` itself included. */
async function modesBelow(dir: string): Promise<Array<{ path: string; kind: 'dir' | 'file'; mode: number }>> {
  const out: Array<{ path: string; kind: 'dir' | 'file'; mode: number }> = [{ path: dir, kind: 'dir', mode: (await stat(dir)).mode & 0o7777 }];
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) out.push(...(await modesBelow(path)));
    else out.push({ path, kind: 'file', mode: (await stat(path)).mode & 0o7777 });
  }
  return out;
}

const clusterNames = fc.uniqueArray(fc.stringMatching(/^[a-z][a-z0-9]{0,6}$/), { minLength: 1, maxLength: 3 });

describe('serve --data', () => {
  test('generated umasks, nestings and clusters: every directory it makes is 0700 and every file 0600, after writes too', async () => {
    await fc.assert(
      fc.asyncProperty(fc.constantFrom('000', '002', '022', '027'), fc.integer({ min: 0, max: 2 }), clusterNames, async (umask, depth, names) => {
        const top = await tree({});
        const data = join(top, ...Array.from({ length: depth }, (_, i) => `level${i}`), 'data');
        const started = await serve(umask, ['--data', data, '--clusters', names.join(','), '--token', 'root-private-dir']);
        expect('urls' in started, JSON.stringify(started)).toBe(true);
        if (!('urls' in started)) return;
        // A write, so the store's log has records (and a compaction's files, if any, are made).
        const res = await fetch(`${started.urls[0]}/sys/auth/ldap`, { method: 'POST', headers: { 'X-Vault-Token': 'root-private-dir' }, body: JSON.stringify({ type: 'ldap' }) });
        expect(res.status).toBe(204);
        await Promise.all(running.splice(0).map(stop));
        // Everything serve made: the missing parents first, then the data directory and all below.
        const made = await modesBelow(depth > 0 ? join(top, 'level0') : data);
        expect(made.filter((m) => m.path.endsWith('store.log'))).toHaveLength(names.length);
        for (const m of made) expect({ path: m.path, mode: m.mode.toString(8) }).toEqual({ path: m.path, mode: m.kind === 'dir' ? '700' : '600' });
      }),
      { numRuns: 4 },
    );
  });

  test('generated modes that let others write: refused before anything is made in it, naming the directory and its mode', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.integer({ min: 0, max: 0o777 }).filter((m) => (m & 0o022) !== 0 && (m & 0o700) === 0o700),
        fc.boolean(),
        fc.constantFrom('', 'default'),
        async (mode, sticky, subdir) => {
          const top = await tree({});
          const data = join(top, 'data');
          await mkdir(join(data, subdir), { recursive: true });
          const bits = mode | (sticky ? 0o1000 : 0);
          // The cluster's own directory, or the data directory itself.
          await chmod(join(data, subdir), bits);
          const started = await serve('022', ['--data', data]);
          const shown = (bits & 0o777).toString(8).padStart(4, '0');
          const who = (bits & 0o002) !== 0 ? 'every user' : 'its group';
          expect(started).toEqual({
            code: 1,
            stderr: `error: data directory ${join(data, subdir)} is writable by ${who} (mode ${shown}): whoever can write there can replace the store and its key; run chmod go-w on it, or choose another directory\n`,
          });
          expect(await readdir(join(data, subdir))).toEqual([]);
        },
      ),
      { numRuns: 6 },
    );
  });
});
