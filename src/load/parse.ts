import { isScalar, LineCounter, parseAllDocuments, visit, type Document } from 'yaml';
import type { Diagnostics, SourcePos } from '../core/diagnostics.js';
import type { LoadedDocument, ValuePath } from './document.js';
import { PositionIndex } from './positions.js';

/** Aliases may expand at most this many times per document (guards against "billion laughs"). */
const MAX_ALIAS_COUNT = 100;

/**
 * Parses one manifest file into its documents. A document with YAML errors is reported (at
 * the error's position) and left out; the other documents of the file still load. Empty
 * documents (nothing, only comments, or `null`) are skipped. Duplicate keys are errors.
 */
export function parseManifest(text: string, file: string, absoluteFile: string, diags: Diagnostics): LoadedDocument[] {
  const lines = new LineCounter();
  const at = (offset: number): SourcePos => {
    const { line, col } = lines.linePos(offset);
    return { file, line, column: col };
  };
  const documents = parseAllDocuments(text, { lineCounter: lines, prettyErrors: false, uniqueKeys: true });
  const out: LoadedDocument[] = [];
  documents.forEach((doc, index) => {
    for (const warning of doc.warnings) diags.warning(`YAML: ${warning.message}`, at(warning.pos[0]));
    for (const error of doc.errors) diags.error(yamlErrorMessage(doc, error.code, error.message, error.pos[0]), at(error.pos[0]));
    if (doc.errors.length > 0 || !aliasesResolve(doc, at, diags)) return;
    let value: unknown;
    try {
      value = doc.toJS({ maxAliasCount: MAX_ALIAS_COUNT });
    } catch (e) {
      diags.error(`YAML: ${(e as Error).message}`, at(doc.range[0]));
      return;
    }
    if (value === null || value === undefined) return;
    const positions = new PositionIndex(doc.contents, file, lines);
    out.push({
      file,
      absoluteFile,
      index,
      value,
      pos: (path: ValuePath = []) => positions.valuePos(path),
      keyPos: (path: ValuePath) => positions.keyPos(path),
    });
  });
  return out;
}

function yamlErrorMessage(doc: Document.Parsed, code: string, message: string, offset: number): string {
  if (code !== 'DUPLICATE_KEY') return `invalid YAML: ${message}`;
  const key = keyTextAt(doc, offset);
  return key === undefined ? 'duplicate key' : `duplicate key "${key}"`;
}

/** The text of the map key that starts at `offset`. */
function keyTextAt(doc: Document.Parsed, offset: number): string | undefined {
  let found: string | undefined;
  visit(doc, {
    Pair(_, pair) {
      if (isScalar(pair.key) && pair.key.range?.[0] === offset) {
        found = String(pair.key.value);
        return visit.BREAK;
      }
      return undefined;
    },
  });
  return found;
}

/** Reports aliases whose anchor is missing (toJS would throw without a position). */
function aliasesResolve(doc: Document.Parsed, at: (offset: number) => SourcePos, diags: Diagnostics): boolean {
  let ok = true;
  visit(doc, {
    Alias(_, node) {
      if (node.resolve(doc) === undefined) {
        ok = false;
        diags.error(`YAML: unknown alias "*${node.source}" (the anchor must be defined before it)`, at(node.range?.[0] ?? 0));
      }
    },
  });
  return ok;
}
