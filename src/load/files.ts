import { readdir, stat } from 'node:fs/promises';
import { extname, join, resolve } from 'node:path';
import type { Diagnostics } from '../core/diagnostics.js';

/** A manifest file to read: its display path (as the user gave it) and its absolute path. */
export interface ManifestFile {
  file: string;
  absoluteFile: string;
}

const MANIFEST_EXTENSIONS = new Set(['.yaml', '.yml']);

export function isManifestFileName(name: string): boolean {
  return MANIFEST_EXTENSIONS.has(extname(name).toLowerCase());
}

/**
 * Expands the paths given on the command line: files as given, directories recursively in
 * sorted path order with hidden entries (`.git`, `.env.yaml`) skipped. A file reached twice is
 * read once. Problems (missing path, a non-YAML file named explicitly) are diagnostics.
 */
export async function listManifestFiles(paths: readonly string[], diags: Diagnostics): Promise<ManifestFile[]> {
  const seen = new Set<string>();
  const out: ManifestFile[] = [];
  const add = (file: string): void => {
    const absoluteFile = resolve(file);
    if (seen.has(absoluteFile)) return;
    seen.add(absoluteFile);
    out.push({ file, absoluteFile });
  };
  for (const given of paths) {
    const info = await stat(given).catch(() => undefined);
    if (!info) {
      diags.error(`${given}: no such file or directory`);
    } else if (info.isDirectory()) {
      for (const relative of await listDirectory(given)) add(join(given, relative));
    } else if (isManifestFileName(given)) {
      add(given);
    } else {
      diags.error(`${given}: not a manifest (expected a .yaml or .yml file or a directory)`);
    }
  }
  return out;
}

/** Relative paths of the manifest files below `dir`, sorted by code units (locale-independent). */
async function listDirectory(dir: string): Promise<string[]> {
  const found: string[] = [];
  const walk = async (relative: string): Promise<void> => {
    const entries = await readdir(join(dir, relative), { withFileTypes: true });
    for (const entry of entries) {
      if (entry.name.startsWith('.')) continue;
      const child = relative === '' ? entry.name : join(relative, entry.name);
      // Symbolic links are followed: stat tells what they point at.
      const kind = entry.isSymbolicLink() ? await stat(join(dir, child)).catch(() => undefined) : entry;
      if (kind?.isDirectory()) await walk(child);
      else if (kind?.isFile() && isManifestFileName(entry.name)) found.push(child);
    }
  };
  await walk('');
  return found.sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
}
