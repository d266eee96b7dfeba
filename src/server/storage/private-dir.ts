import { mkdir, stat } from 'node:fs/promises';

/** Owner only: the store, the storage key (cluster.json) and the lock are no one else's to read. */
export const PRIVATE_DIR_MODE = 0o700;
export const PRIVATE_FILE_MODE = 0o600;

/**
 * Makes `dir` (and any missing parent) owner-only, or checks the one that is there: a data
 * directory that other users can write (group or world writable, or another user's) is refused,
 * since whoever can write there can replace the store, its key or the lock. One that exists is
 * not changed: its mode is the user's choice, as long as no one else can write it.
 */
export async function ensurePrivateDir(dir: string): Promise<void> {
  await mkdir(dir, { recursive: true, mode: PRIVATE_DIR_MODE });
  const info = await stat(dir);
  if (!info.isDirectory()) throw new Error(`data directory ${dir} is not a directory`);
  const mode = (info.mode & 0o777).toString(8).padStart(4, '0');
  if ((info.mode & 0o022) !== 0) {
    const who = (info.mode & 0o002) !== 0 ? 'every user' : 'its group';
    throw new Error(`data directory ${dir} is writable by ${who} (mode ${mode}): whoever can write there can replace the store and its key; run chmod go-w on it, or choose another directory`);
  }
  const me = process.geteuid?.();
  if (me !== undefined && info.uid !== me) {
    throw new Error(`data directory ${dir} belongs to another user (uid ${info.uid}), who can write there; choose a directory of your own`);
  }
}
