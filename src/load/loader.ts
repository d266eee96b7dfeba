import { readFile } from 'node:fs/promises';
import type { Diagnostics } from '../core/diagnostics.js';
import type { LoadedDocument } from './document.js';
import { listManifestFiles, type ManifestFile } from './files.js';
import { parseManifest } from './parse.js';

/**
 * Reads every manifest below `paths` (files or directories) into documents, in file order and
 * document order. Every problem of every file is added to `diags`; nothing is thrown.
 */
export async function loadPaths(paths: string[], diags: Diagnostics): Promise<LoadedDocument[]> {
  const files = await readManifestFiles(paths, diags);
  return files.flatMap((f) => parseManifest(f.text, f.file, f.absoluteFile, diags, f.givenDir));
}

export interface ManifestText extends ManifestFile {
  text: string;
}

/** Every manifest file below `paths` with its text; a file that cannot be read is a diagnostic and left out. */
export async function readManifestFiles(paths: readonly string[], diags: Diagnostics): Promise<ManifestText[]> {
  const files = await listManifestFiles(paths, diags);
  const texts = await Promise.all(
    files.map((f) =>
      readFile(f.absoluteFile, 'utf8').catch((e: NodeJS.ErrnoException) => {
        diags.error(`${f.file}: cannot read file (${e.code ?? e.message})`);
        return undefined;
      }),
    ),
  );
  return files.flatMap((f, i) => {
    const text = texts[i];
    return text === undefined ? [] : [{ ...f, text }];
  });
}
