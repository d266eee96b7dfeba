import { isDeepStrictEqual } from 'node:util';
import { yamlLibrary } from './yaml-library.js';

/**
 * A manifest file's text in lockstep's canonical layout (`lockstep fmt`), as the `yaml` library
 * prints a parsed document: two-space indentation, sequences indented under their key, one space
 * after `:` and `,`, no folding of long lines, LF line ends, one final newline. What the author
 * chose is kept: comments, blank lines between entries, key order, flow or block style and each
 * scalar's quoting. The text must have parsed without errors (the loader says why otherwise).
 */
export type Formatted =
  /** The canonical text; `changed` when it differs from what was given. */
  | { kind: 'formatted'; text: string; changed: boolean }
  /** The printed text would read back as other values: left as it is (a defect of the printer). */
  | { kind: 'unsafe'; reason: string };

const PRINT_OPTIONS = { lineWidth: 0, indent: 2, indentSeq: true } as const;

export function formatManifestText(text: string): Formatted {
  const { parseAllDocuments } = yamlLibrary();
  const documents = parseAllDocuments(text.replace(/\r\n/g, '\n'), { uniqueKeys: false, logLevel: 'silent' });
  const printed = documents.map((d) => d.toString(PRINT_OPTIONS)).join('');
  const formatted = printed.trim() === '' ? '' : printed.replace(/\n*$/, '\n');
  try {
    const before = documents.map((d) => d.toJS() as unknown);
    const after = parseAllDocuments(formatted, { uniqueKeys: false, logLevel: 'silent' }).map((d) => d.toJS() as unknown);
    if (!isDeepStrictEqual(before, after)) return { kind: 'unsafe', reason: 'the canonical layout would read back as other values' };
  } catch (err) {
    return { kind: 'unsafe', reason: (err as Error).message };
  }
  return { kind: 'formatted', text: formatted, changed: formatted !== text };
}
