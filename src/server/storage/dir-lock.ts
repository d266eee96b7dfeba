import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';

/**
 * Keeps two servers from writing one data directory. The lock file holds the owner's pid; a
 * lock left by a process that no longer runs (kill -9) is taken over.
 */
const heldInThisProcess = new Set<string>();

export interface DirLock {
  release(): Promise<void>;
}

export async function lockDir(dir: string): Promise<DirLock> {
  const absolute = resolve(dir);
  if (heldInThisProcess.has(absolute)) throw new Error(`data directory ${dir} is already in use by this process`);
  await mkdir(absolute, { recursive: true });
  const file = join(absolute, 'LOCK');
  const owner = await readOwner(file);
  if (owner !== undefined && owner !== process.pid && processRuns(owner)) {
    throw new Error(`data directory ${dir} is in use by process ${owner}`);
  }
  await writeFile(file, `${process.pid}\n`, { mode: 0o600 });
  heldInThisProcess.add(absolute);
  return {
    async release() {
      heldInThisProcess.delete(absolute);
      await rm(file, { force: true });
    },
  };
}

async function readOwner(file: string): Promise<number | undefined> {
  try {
    const pid = Number.parseInt(await readFile(file, 'utf8'), 10);
    return Number.isInteger(pid) && pid > 0 ? pid : undefined;
  } catch {
    return undefined;
  }
}

function processRuns(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}
