import { readdir, realpath, stat } from 'node:fs/promises';
import { dirname, extname, join, resolve } from 'node:path';
import type { Diagnostics } from '../core/diagnostics.js';

/** A manifest file to read: its display path (as the user gave it) and its absolute path. */
export interface ManifestFile {
  file: string;
  absoluteFile: string;
  /**
   * The absolute directory given on the command line that led to this file (the path itself,
   * or its folder when a file was given): outside git, `${file:}` references stay inside it.
   */
  givenDir: string;
}

const MANIFEST_EXTENSIONS = new Set(['.yaml', '.yml']);

/** The file that marks the root of a manifest set (manifest-root.ts): found in a directory, it is not a manifest. */
export const ROOT_MARKER = 'lockstep.yaml';

function isManifestFileName(name: string): boolean {
  return MANIFEST_EXTENSIONS.has(extname(name).toLowerCase());
}

/**
 * Expands the paths given on the command line: files as given, directories recursively in
 * sorted path order with hidden entries (`.git`, `.env.yaml`) skipped. Each real file is read
 * once and each real directory walked once, however many names (symbolic links, paths given
 * twice) lead to it; a link back into a directory being walked is a loop, reported once where
 * it is and not followed. Problems (missing path, a non-YAML file named explicitly, a loop) are
 * diagnostics.
 */
export async function listManifestFiles(paths: readonly string[], diags: Diagnostics): Promise<ManifestFile[]> {
  const seenFiles = new Set<string>();
  const walkedDirs = new Set<string>();
  const out: ManifestFile[] = [];
  const add = (file: string, realFile: string, givenDir: string): void => {
    if (seenFiles.has(realFile)) return;
    seenFiles.add(realFile);
    out.push({ file, absoluteFile: resolve(file), givenDir });
  };
  for (const given of paths) {
    const info = await stat(given).catch(() => undefined);
    const real = info ? await realpath(given).catch(() => undefined) : undefined;
    if (!info || real === undefined) {
      diags.error(`${given}: no such file or directory`);
    } else if (info.isDirectory()) {
      const givenDir = resolve(given);
      for (const found of await listDirectory(given, real, walkedDirs, diags)) add(found.file, found.realFile, givenDir);
    } else if (!isManifestFileName(given)) {
      diags.error(`${given}: not a manifest (expected a .yaml or .yml file or a directory)`);
    } else if (info.isFile()) {
      add(given, real, dirname(resolve(given)));
    } else {
      // A FIFO or a device would block the read, or never end.
      diags.error(`${given}: not a regular file`);
    }
  }
  return out;
}

interface FoundFile {
  /** Display path: the directory as given, joined with the names walked. */
  file: string;
  realFile: string;
}

/**
 * The manifest files below `dir` (whose real path is `realDir`) not reached before, sorted by
 * display path in code units (locale-independent). Entries are walked in name order, so which
 * of several names of one file is kept does not depend on the order the file system lists them.
 */
async function listDirectory(dir: string, realDir: string, walkedDirs: Set<string>, diags: Diagnostics): Promise<FoundFile[]> {
  const found: FoundFile[] = [];
  // Real path → display path of each directory on the way down from `dir` (a link to one is a loop).
  const ancestors = new Map<string, string>();
  const walk = async (display: string, real: string): Promise<void> => {
    if (walkedDirs.has(real)) return;
    walkedDirs.add(real);
    ancestors.set(real, display);
    const entries = await readdir(display, { withFileTypes: true }).catch((e: NodeJS.ErrnoException) => {
      diags.error(`${display}: cannot read directory (${e.code ?? e.message})`);
      return [];
    });
    entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    for (const entry of entries) {
      if (entry.name.startsWith('.')) continue;
      const child = join(display, entry.name);
      const target = entry.isSymbolicLink() ? await linkTarget(child, diags) : { info: entry, real: join(real, entry.name) };
      if (!target) continue;
      if (target.info.isDirectory()) {
        const loopsTo = ancestors.get(target.real);
        if (loopsTo !== undefined) diags.error(`${child}: symbolic link loop: it leads back to ${loopsTo}, which is being read (not followed)`);
        else await walk(child, target.real);
      } else if (target.info.isFile() && isManifestFileName(entry.name) && entry.name !== ROOT_MARKER) {
        found.push({ file: child, realFile: target.real });
      }
    }
    ancestors.delete(real);
  };
  await walk(dir, realDir);
  return found.sort((a, b) => (a.file < b.file ? -1 : a.file > b.file ? 1 : 0));
}

/** What a symbolic link points at, and its real path; undefined when it dangles (skipped) or loops (reported). */
async function linkTarget(link: string, diags: Diagnostics): Promise<{ info: { isDirectory(): boolean; isFile(): boolean }; real: string } | undefined> {
  try {
    return { info: await stat(link), real: await realpath(link) };
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    if (code === 'ELOOP') diags.error(`${link}: symbolic link loop: the links never reach a file or directory (not followed)`);
    return undefined;
  }
}
