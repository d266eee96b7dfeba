import { constants, type Stats } from 'node:fs';
import { lstat, open, readFile, realpath, stat, type FileHandle } from 'node:fs/promises';
import { dirname, isAbsolute, join, relative, resolve, sep } from 'node:path';

/** The most a `${file:}` reference may read: certificates, keys and credential files are far smaller. */
export const MAX_REFERENCED_FILE_BYTES = 1024 * 1024;

/** Where file references of one manifest must stay: a real directory, and how to name it. */
export interface FileReferenceRoot {
  realDir: string;
  description: string;
  /**
   * The repository's own directory when a `.git` file points elsewhere (a worktree, a submodule,
   * `git init --separate-git-dir`): as closed to references as a `.git` directory, wherever it is.
   */
  gitDir?: string;
}

/**
 * The directory a manifest's file references must stay inside: the git work tree that holds
 * the manifest (the nearest ancestor with a `.git` entry, folder or file as in a worktree), or,
 * outside git, the directory given on the command line. Real paths, so a link cannot widen it.
 */
export async function fileReferenceRoot(absoluteFile: string, givenDir: string): Promise<FileReferenceRoot> {
  for (let dir = dirname(absoluteFile); ; dir = dirname(dir)) {
    const marker = await lstat(join(dir, '.git')).catch(() => undefined);
    if (marker) {
      const gitDir = marker.isFile() ? await pointedGitDir(join(dir, '.git')) : undefined;
      return { realDir: await realpath(dir).catch(() => dir), description: `the git work tree that holds the manifest (${dir})`, ...(gitDir ? { gitDir } : {}) };
    }
    if (dirname(dir) === dir) break;
  }
  return { realDir: await realpath(givenDir).catch(() => givenDir), description: `the directory given on the command line (${givenDir})` };
}

/**
 * The content of the file at `target` (one trailing newline removed: editors add one), or why
 * it is not read. Its real path (every link resolved) must lie inside `root` unless root is
 * undefined (confinement lifted on purpose), and never inside the repository's own directory (a
 * `.git` directory, or the one a `.git` file points to). Only a regular file is read: it is checked before
 * opening, and again on the handle, opened non-blocking, so a FIFO or a device never blocks the
 * run. At most MAX_REFERENCED_FILE_BYTES, counted as read (a /proc file says size 0), and UTF-8
 * text. A problem names the file, never what it holds.
 */
export async function readReferencedFile(target: string, root: FileReferenceRoot | undefined): Promise<string | { problem: string }> {
  let real: string;
  try {
    real = await realpath(target);
  } catch (e) {
    return { problem: openProblem(e) };
  }
  if (root && !isInside(real, root.realDir)) {
    return { problem: `is outside ${root.description}; pass --allow-files-outside-root to read it on purpose` };
  }
  // A repository's own directory is inside the work tree, and holds what a pull request's author
  // must not be able to print into its plan: the checkout's credentials (.git/config), hooks.
  if (real.split(sep).some((segment) => segment.toLowerCase() === '.git') || (root?.gitDir !== undefined && isInside(real, root.gitDir))) {
    return { problem: "is inside the repository's git directory (.git), which holds its own settings and credentials, never a manifest's values" };
  }
  const before = await stat(real).catch((e: unknown) => e as NodeJS.ErrnoException);
  if (before instanceof Error) return { problem: openProblem(before) };
  if (!before.isFile()) return { problem: `is not a regular file (${fileType(before)})` };
  let handle;
  try {
    handle = await open(real, constants.O_RDONLY | constants.O_NONBLOCK | (constants.O_NOFOLLOW ?? 0));
  } catch (e) {
    return { problem: openProblem(e) };
  }
  try {
    const info = await handle.stat();
    if (!info.isFile()) return { problem: `is not a regular file (${fileType(info)})` };
    const bytes = await readAtMost(handle, MAX_REFERENCED_FILE_BYTES + 1, info.size);
    if (bytes.length > MAX_REFERENCED_FILE_BYTES) return { problem: `is larger than ${MAX_REFERENCED_FILE_BYTES} bytes (1 MiB), the most a reference reads` };
    let text: string;
    try {
      text = new TextDecoder('utf-8', { fatal: true }).decode(bytes);
    } catch {
      return { problem: 'is not UTF-8 text' };
    }
    return text.replace(/\r?\n$/, '');
  } catch (e) {
    return { problem: openProblem(e) };
  } finally {
    await handle.close();
  }
}

/** Up to `limit` bytes, read until the end (not trusting the size a /proc file reports), in chunks the file's size suggests. */
async function readAtMost(handle: FileHandle, limit: number, sizeHint: number): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let total = 0;
  let chunkSize = Math.min(limit, Math.max(sizeHint + 1, 4096));
  while (total < limit) {
    const chunk = Buffer.alloc(Math.min(chunkSize, limit - total));
    const { bytesRead } = await handle.read(chunk, 0, chunk.length, null);
    if (bytesRead === 0) break;
    chunks.push(chunk.subarray(0, bytesRead));
    total += bytesRead;
    chunkSize *= 2;
  }
  return Buffer.concat(chunks, total);
}

/** The real path of the directory a `.git` file names (`gitdir: <path>`, relative to the file's folder); undefined when it names none. */
async function pointedGitDir(file: string): Promise<string | undefined> {
  const text = await readFile(file, 'utf8').catch(() => '');
  const named = /^gitdir:\s*(.+?)\s*$/m.exec(text)?.[1];
  if (named === undefined) return undefined;
  const dir = resolve(dirname(file), named);
  return realpath(dir).catch(() => dir);
}

function isInside(path: string, dir: string): boolean {
  const rel = relative(dir, path);
  return rel === '' || (rel !== '..' && !rel.startsWith(`..${sep}`) && !isAbsolute(rel));
}

function openProblem(e: unknown): string {
  const code = (e as NodeJS.ErrnoException).code;
  switch (code) {
    case 'ENOENT':
    case 'ENOTDIR':
      return "does not exist (paths are relative to the manifest's folder)";
    case 'EISDIR':
      return 'is not a regular file (a directory)';
    case 'ELOOP':
      return 'is a loop of symbolic links';
    default:
      return `cannot be read (${code ?? 'error'})`;
  }
}

function fileType(info: Stats): string {
  if (info.isDirectory()) return 'a directory';
  if (info.isFIFO()) return 'a named pipe';
  if (info.isSocket()) return 'a socket';
  if (info.isCharacterDevice() || info.isBlockDevice()) return 'a device';
  return 'not a plain file';
}
