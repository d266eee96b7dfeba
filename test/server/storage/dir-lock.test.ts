import { execFile, spawn } from 'node:child_process';
import { mkdir, mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { lockDir } from '../../../src/server/storage/dir-lock.js';

/**
 * #13.11: the --data lock is exclusive across processes. Real child processes race for it,
 * released together by one line on their stdin; no timing is assumed anywhere. The racers of a
 * test race round after round (a process start costs more than a round).
 */
let work: string;
let childScript: string;

beforeAll(async () => {
  work = await mkdtemp(join(tmpdir(), 'lockstep-dir-lock-'));
  // dir-lock.ts imports only node: modules: compiled alone, it runs in a child as it is.
  const repo = fileURLToPath(new URL('../../..', import.meta.url));
  await writeFile(join(work, 'package.json'), '{"type":"module"}\n');
  const args = ['--ignoreConfig', join(repo, 'src/server/storage/dir-lock.ts'), '--outDir', work, '--module', 'nodenext', '--moduleResolution', 'nodenext', '--target', 'es2022', '--skipLibCheck', '--types', 'node'];
  await promisify(execFile)(join(repo, 'node_modules/.bin/tsc'), args);
  childScript = join(work, 'racer.mjs');
  await writeFile(
    childScript,
    `import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { lockDir } from './dir-lock.js';
const lines = createInterface({ input: process.stdin })[Symbol.asyncIterator]();
console.log('ready');
// One race a round: "go <dir>", then "release"; the same processes race again next round.
for (let go = await lines.next(); !go.done; go = await lines.next()) {
  let held;
  try {
    held = await lockDir(go.value.slice('go '.length));
    console.log('won');
  } catch (err) {
    console.log('lost: ' + err.message);
  }
  await lines.next(); // "release": the winner holds the lock until every racer has tried
  await held?.release();
  console.log('released');
}
`,
  );
});
afterAll(() => rm(work, { recursive: true, force: true }));

interface Racer {
  send(line: string): void;
  /** Lets the racer exit. */
  end(): void;
  next(): Promise<string>;
  exited: Promise<number | null>;
}

function racer(): Racer {
  const child = spawn(process.execPath, [childScript], { stdio: ['pipe', 'pipe', 'inherit'] });
  const lines = createInterface({ input: child.stdout })[Symbol.asyncIterator]();
  const exited = new Promise<number | null>((resolve) => child.once('exit', resolve));
  return {
    send: (line) => child.stdin.write(`${line}\n`),
    end: () => child.stdin.end(),
    next: async () => {
      const { value, done } = await lines.next();
      if (done) throw new Error('a racer ended early');
      return value;
    },
    exited,
  };
}

/** The pid of a process that has exited (its number is free, for a while at least). */
async function pidOfAnEndedProcess(): Promise<number> {
  const dead = spawn(process.execPath, ['-e', '']);
  return new Promise<number>((resolve) => dead.once('exit', () => resolve(dead.pid!)));
}

describe('#13.11 the data directory lock', () => {
  it('#13.11: of two processes racing for one data directory, exactly one gets it, 20 times out of 20', async () => {
    const racers = [racer(), racer()];
    for (const r of racers) expect(await r.next()).toBe('ready');
    for (let round = 0; round < 20; round++) {
      const dir = join(work, `data-${round}`);
      for (const r of racers) r.send(`go ${dir}`);
      const outcomes = await Promise.all(racers.map((r) => r.next()));
      for (const r of racers) r.send('release');
      expect(await Promise.all(racers.map((r) => r.next()))).toEqual(['released', 'released']);
      expect(outcomes.filter((o) => o === 'won'), `round ${round}: ${outcomes.join(' | ')}`).toHaveLength(1);
      expect(outcomes.find((o) => o !== 'won')).toMatch(/^lost: data directory .* is in use by process \d+$/);
      // Released: nothing is left behind but an empty directory at most.
      expect((await readdir(dir)).filter((n) => n.startsWith('LOCK'))).toEqual([]);
    }
    for (const r of racers) r.end();
    expect(await Promise.all(racers.map((r) => r.exited))).toEqual([0, 0]);
  });

  it('#13.11: of three processes racing to take over a dead owner\'s lock, exactly one gets it, 10 times out of 10', async () => {
    const deadPid = await pidOfAnEndedProcess();
    const racers = [racer(), racer(), racer()];
    for (const r of racers) expect(await r.next()).toBe('ready');
    for (let round = 0; round < 10; round++) {
      const dir = join(work, `stale-race-${round}`);
      await mkdir(join(dir, 'LOCK'), { recursive: true });
      await writeFile(join(dir, 'LOCK', `${deadPid}-0123456789abcdef`), `${deadPid}\n`);
      for (const r of racers) r.send(`go ${dir}`);
      const outcomes = await Promise.all(racers.map((r) => r.next()));
      for (const r of racers) r.send('release');
      expect(await Promise.all(racers.map((r) => r.next()))).toEqual(['released', 'released', 'released']);
      expect(outcomes.filter((o) => o === 'won'), `round ${round}: ${outcomes.join(' | ')}`).toHaveLength(1);
    }
    for (const r of racers) r.end();
    await Promise.all(racers.map((r) => r.exited));
  });

  it('#13.11: takes over a lock whose owner no longer runs, and refuses one whose owner runs', async () => {
    const dir = join(work, 'stale');
    await mkdir(join(dir, 'LOCK'), { recursive: true });
    const deadPid = await pidOfAnEndedProcess();
    await writeFile(join(dir, 'LOCK', `${deadPid}-0123456789abcdef`), `${deadPid}\n`);
    const held = await lockDir(dir);
    await expect(lockDir(dir)).rejects.toThrow(/already in use by this process/);
    const other = racer();
    expect(await other.next()).toBe('ready');
    other.send(`go ${dir}`);
    expect(await other.next()).toBe(`lost: data directory ${dir} is in use by process ${process.pid}`);
    other.send('release');
    expect(await other.next()).toBe('released');
    other.end();
    await other.exited;
    await held.release();
  });

  it('#13.11: reads the lock file an earlier version wrote (a pid): refused while that process runs, taken over after', async () => {
    const dir = join(work, 'old-format');
    await mkdir(dir, { recursive: true });
    await writeFile(join(dir, 'LOCK'), `${process.ppid}\n`);
    await expect(lockDir(dir)).rejects.toThrow(`data directory ${dir} is in use by process ${process.ppid}`);
    const deadPid = await pidOfAnEndedProcess();
    await writeFile(join(dir, 'LOCK'), `${deadPid}\n`);
    const held = await lockDir(dir);
    await held.release();
  });
});
