import { stat } from 'node:fs/promises';
import { dirname, resolve } from 'node:path';
import { ROOT_MARKER } from './files.js';

/**
 * The root of the manifest set a path belongs to: the nearest directory at or above it that
 * holds a `lockstep.yaml`, else the git work tree it is in (the nearest directory with a `.git`
 * entry). Undefined outside both: the paths given are then the whole set.
 */
export async function manifestRoot(path: string): Promise<string | undefined> {
  const start = resolve(path);
  const from = (await stat(start).catch(() => undefined))?.isDirectory() ? start : dirname(start);
  let gitRoot: string | undefined;
  for (let dir = from; ; dir = dirname(dir)) {
    if (await exists(resolve(dir, ROOT_MARKER))) return dir;
    if (gitRoot === undefined && (await exists(resolve(dir, '.git')))) gitRoot = dir;
    if (dirname(dir) === dir) return gitRoot;
  }
}

async function exists(path: string): Promise<boolean> {
  return (await stat(path).catch(() => undefined)) !== undefined;
}
