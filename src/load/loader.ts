import { readFile } from 'node:fs/promises';
import type { Diagnostics } from '../core/diagnostics.js';
import { AliasBudget } from './alias-expansion.js';
import type { LoadedDocument } from './document.js';
import { listManifestFiles, type ManifestFile } from './files.js';
import { parseManifest } from './parse.js';
import { decodeUtf8 } from './utf8-text.js';

/**
 * Reads every manifest below `paths` (files or directories) into documents, in file order and
 * document order. Every problem of every file is added to `diags`; nothing is thrown.
 */
export async function loadPaths(paths: string[], diags: Diagnostics): Promise<LoadedDocument[]> {
  const files = await readManifestFiles(paths, diags);
  const aliases = new AliasBudget();
  return files.flatMap((f) => parseManifest(f.text, f.file, f.absoluteFile, diags, { givenDir: f.givenDir, aliases }));
}

export interface ManifestText extends ManifestFile {
  text: string;
}

/**
 * Every manifest file below `paths` with its text. A file that cannot be read, or is not UTF-8
 * (refused at its first bad byte, not read with the bytes replaced), is a diagnostic and left out.
 */
export async function readManifestFiles(paths: readonly string[], diags: Diagnostics): Promise<ManifestText[]> {
  const files = await listManifestFiles(paths, diags);
  const contents = await Promise.all(
    files.map((f) =>
      readFile(f.absoluteFile).catch((e: NodeJS.ErrnoException) => {
        diags.error(`${f.file}: cannot read file (${e.code ?? e.message})`);
        return undefined;
      }),
    ),
  );
  return files.flatMap((f, i) => {
    const bytes = contents[i];
    if (bytes === undefined) return [];
    const decoded = decodeUtf8(bytes);
    if ('badByte' in decoded) {
      const { byte, line, column } = decoded.badByte;
      const hex = byte.toString(16).toUpperCase().padStart(2, '0');
      diags.error(`not UTF-8 text: byte 0x${hex} here is not UTF-8 (manifests are read as UTF-8; the file is not read)`, { file: f.file, line, column });
      return [];
    }
    return [{ ...f, text: decoded.text }];
  });
}
