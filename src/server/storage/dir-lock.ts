import { randomBytes } from 'node:crypto';
import { lstat, mkdir, readdir, readFile, rename, rm, rmdir, unlink, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { ensurePrivateDir, PRIVATE_DIR_MODE, PRIVATE_FILE_MODE } from './private-dir.js';

/**
 * Keeps two servers from writing one data directory, across processes.
 *
 * The lock is the directory `LOCK` holding one file named after its owner, `<pid>-<nonce>`. It
 * is taken by renaming a private directory (already holding the owner file) to `LOCK`: rename(2)
 * onto an existing directory fails unless that directory is empty, so exactly one of any number
 * of racing processes gets it (the O_EXCL of directories, with the owner in place from the
 * first instant). A lock whose owner no longer runs (kill -9) is taken over by unlinking that
 * owner's file by its unique name, which cannot remove the lock of anyone who got there first,
 * then racing for the empty `LOCK` as above.
 */
const heldInThisProcess = new Set<string>();

/** Tries that find the lock changing under them (a takeover by someone else) before giving up. */
const MAX_ATTEMPTS = 8;

export interface DirLock {
  release(): Promise<void>;
}

export async function lockDir(dir: string): Promise<DirLock> {
  const absolute = resolve(dir);
  if (heldInThisProcess.has(absolute)) throw new Error(`data directory ${dir} is already in use by this process`);
  heldInThisProcess.add(absolute); // at once: a second call of this process must not see a stale lock
  try {
    await ensurePrivateDir(absolute);
    const ownerName = `${process.pid}-${randomBytes(8).toString('hex')}`;
    const lock = join(absolute, 'LOCK');
    await acquire(dir, lock, ownerName);
    return {
      async release() {
        heldInThisProcess.delete(absolute);
        await rm(join(lock, ownerName), { force: true });
        // Someone may already have renamed their lock onto the emptied directory: then it stays.
        await rmdir(lock).catch(() => undefined);
      },
    };
  } catch (err) {
    heldInThisProcess.delete(absolute);
    throw err;
  }
}

async function acquire(dir: string, lock: string, ownerName: string): Promise<void> {
  const candidate = `${lock}.${ownerName}`;
  await mkdir(candidate, { mode: PRIVATE_DIR_MODE });
  try {
    await writeFile(join(candidate, ownerName), `${process.pid}\n`, { mode: PRIVATE_FILE_MODE });
    for (let attempt = 0; attempt < MAX_ATTEMPTS; attempt++) {
      try {
        await rename(candidate, lock);
        return;
      } catch (err) {
        const code = (err as NodeJS.ErrnoException).code;
        if (code !== 'ENOTEMPTY' && code !== 'EEXIST' && code !== 'ENOTDIR') throw err;
      }
      await clearStale(dir, lock);
    }
    throw new Error(`data directory ${dir} could not be locked: its LOCK kept changing (another process is starting on it)`);
  } finally {
    await rm(candidate, { recursive: true, force: true });
  }
}

/** Removes what a process that no longer runs left in `lock`; throws when a live process holds it. */
async function clearStale(dir: string, lock: string): Promise<void> {
  const kind = await lstat(lock).catch(() => undefined);
  if (kind === undefined) return; // released meanwhile
  if (!kind.isDirectory()) {
    // The lock file of an earlier version: its pid on one line. unlink() cannot remove a
    // directory, so this never removes the lock of a process using the current rule.
    const owner = Number.parseInt(await readFile(lock, 'utf8').catch(() => ''), 10);
    if (Number.isInteger(owner) && owner > 0 && processRuns(owner)) throw inUse(dir, owner);
    await unlink(lock).catch(() => undefined);
    return;
  }
  for (const name of await readdir(lock).catch(() => [] as string[])) {
    const owner = Number.parseInt(name, 10);
    if (Number.isInteger(owner) && owner > 0 && owner !== process.pid && processRuns(owner)) throw inUse(dir, owner);
    // A dead owner's file, by its unique name: if the lock was taken over meanwhile, this
    // name is gone and the new owner's file is untouched.
    await unlink(join(lock, name)).catch(() => undefined);
  }
}

function inUse(dir: string, owner: number): Error {
  return new Error(`data directory ${dir} is in use by process ${owner}`);
}

function processRuns(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}
