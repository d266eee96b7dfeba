/**
 * `local` destinations: a directory. Object names are paths inside it, written the way the
 * configured path_prefix is written (relative names resolve against the working directory, as
 * path_prefix does), so `snapshotObjectName(path_prefix, ...)` equals what list() returns. A write goes to a
 * hidden temp file in the same directory, is fsynced, then renamed over the final name, so a
 * crash or a failed write never leaves a half-written `.snap` that looks complete; list()
 * never shows temp files.
 */
import { randomBytes } from 'node:crypto';
import { lstat, mkdir, open, readdir, readFile, rename, rm, statfs, unlink } from 'node:fs/promises';
import { basename, dirname, join, relative, resolve, sep, isAbsolute } from 'node:path';
import { pathToFileURL } from 'node:url';
import { StorageError, toStorageError } from './errors.js';
import { joinPrefix } from './naming.js';
import type { ObjectInfo, ObjectStore } from './types.js';

const TEMP_MARK = '.lockstep-tmp-';

export class LocalStore implements ObjectStore {
  /** The directory, absolute. */
  readonly root: string;

  /** @param directory path_prefix as configured (absolute or relative to the working directory). */
  constructor(private readonly directory: string) {
    this.root = resolve(directory);
  }

  async put(name: string, data: Buffer): Promise<void> {
    const path = this.inside(name);
    const dir = dirname(path);
    const tmp = join(dir, `${TEMP_MARK}${randomBytes(6).toString('hex')}-${basename(path)}`);
    try {
      await mkdir(dir, { recursive: true, mode: 0o700 });
      // 0600: a snapshot holds every secret of the cluster.
      const handle = await open(tmp, 'wx', 0o600);
      try {
        await handle.writeFile(data);
        await handle.sync();
      } finally {
        await handle.close();
      }
      await rename(tmp, path);
    } catch (err) {
      await rm(tmp, { force: true }).catch(() => undefined);
      throw toStorageError(err, `write ${path}`, []);
    }
    await syncDirectory(dir);
  }

  async list(prefix: string): Promise<ObjectInfo[]> {
    const wanted = this.absolutePrefix(prefix);
    const parent = wanted.endsWith(sep) ? wanted.slice(0, -1) : dirname(wanted);
    // Never walk above the configured directory, even for a prefix like `/var/snap`.
    const start = isWithin(parent, this.root) ? parent : this.root;
    const found: ObjectInfo[] = [];
    try {
      await walk(start, async (path) => {
        if (!path.startsWith(wanted)) return;
        const st = await lstat(path);
        if (st.isFile()) found.push({ name: this.nameOf(path), size: st.size, modified: st.mtime });
      });
    } catch (err) {
      throw toStorageError(err, `list ${wanted}`, []);
    }
    return found;
  }

  async get(name: string): Promise<Buffer> {
    const path = this.inside(name);
    try {
      return await readFile(path);
    } catch (err) {
      throw toStorageError(err, `read ${path}`, []);
    }
  }

  async remove(name: string): Promise<void> {
    const path = this.inside(name);
    try {
      await unlink(path);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') return;
      throw toStorageError(err, `delete ${path}`, []);
    }
  }

  describe(): string {
    return pathToFileURL(this.root).toString();
  }

  urlOf(name: string): string {
    return pathToFileURL(this.inside(name)).toString();
  }

  /** Bytes available to this process on the directory's filesystem (of its nearest existing ancestor). */
  async freeSpace(): Promise<number> {
    let dir = this.root;
    for (;;) {
      try {
        const s = await statfs(dir);
        return s.bavail * s.bsize;
      } catch (err) {
        const up = dirname(dir);
        if ((err as NodeJS.ErrnoException).code !== 'ENOENT' || up === dir) throw toStorageError(err, `statfs ${dir}`, []);
        dir = up;
      }
    }
  }

  /** The absolute path of an object; names outside the directory are refused. */
  private inside(name: string): string {
    const path = resolve(name);
    if (!isWithin(path, this.root) || path === this.root || basename(path).startsWith(TEMP_MARK)) {
      throw new StorageError('invalid-config', `object name ${JSON.stringify(name)} is outside ${this.root}`);
    }
    return path;
  }

  /** An absolute path as an object name: path_prefix as configured, then `/`-separated. */
  private nameOf(path: string): string {
    const rel = relative(this.root, path).split(sep).join('/');
    return joinPrefix(this.directory, rel);
  }

  /** Like resolve(), but keeps a trailing separator: `dir/` lists inside dir only. */
  private absolutePrefix(prefix: string): string {
    const abs = resolve(prefix);
    return prefix.endsWith('/') || prefix.endsWith(sep) ? (abs.endsWith(sep) ? abs : abs + sep) : abs;
  }
}

function isWithin(path: string, dir: string): boolean {
  const rel = relative(dir, path);
  return rel === '' || (rel !== '..' && !rel.startsWith(`..${sep}`) && !isAbsolute(rel));
}

/** Calls `visit` for every non-directory entry under `dir`; a missing `dir` is empty. */
async function walk(dir: string, visit: (path: string) => Promise<void>): Promise<void> {
  let entries;
  try {
    entries = await readdir(dir, { withFileTypes: true });
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'ENOTDIR') return;
    throw err;
  }
  for (const e of entries) {
    if (e.name.startsWith(TEMP_MARK)) continue;
    const path = join(dir, e.name);
    if (e.isDirectory()) await walk(path, visit);
    else await visit(path);
  }
}

/** Makes the rename durable; some filesystems refuse to open a directory, which is harmless. */
async function syncDirectory(dir: string): Promise<void> {
  try {
    const handle = await open(dir, 'r');
    try {
      await handle.sync();
    } finally {
      await handle.close();
    }
  } catch {
    // best effort
  }
}
