import type { Document } from 'yaml';
import type { Diagnostics, SourcePos } from '../core/diagnostics.js';
import { AliasBudget, aliasProblem } from './alias-expansion.js';
import { tagProblems, UNRESOLVED_TAG_WARNING } from './core-tags.js';
import type { LoadedDocument, ValuePath } from './document.js';
import { parseFast } from './fast-parse.js';
import { LazyFilePositions } from './lazy-positions.js';
import { nodeTreeSpots, PositionIndex } from './positions.js';
import { yamlLibrary } from './yaml-library.js';

/**
 * Parses one manifest file into its documents. A document with YAML errors is reported (at
 * the error's position) and left out; the other documents of the file still load. Empty
 * documents (nothing, only comments, or `null`) are skipped. Duplicate keys are errors, and
 * their document still loads so that later stages report its other problems.
 *
 * Two parsers, one result: the fast one reads what it can (every valid manifest in practice)
 * and leaves positions to be worked out if something asks; the careful one (the `yaml`
 * library) reads the rest, keeping every position and reporting each problem where it is.
 */
export function parseManifest(text: string, file: string, absoluteFile: string, diags: Diagnostics, opts: ParseOptions = {}): LoadedDocument[] {
  const values = parseFast(text);
  const source: DocumentSource = { file, absoluteFile, givenDir: opts.givenDir };
  return values ? fastDocuments(values, text, source) : parseCarefully(text, source, diags, opts.aliases ?? new AliasBudget());
}

export interface ParseOptions {
  /** See LoadedDocument.givenDir. */
  givenDir?: string;
  /** What aliases may still expand to: one budget for all the files of a run. */
  aliases?: AliasBudget;
}

/** What every document of one file shares. */
type DocumentSource = Pick<LoadedDocument, 'file' | 'absoluteFile' | 'givenDir'>;

function fastDocuments(values: unknown[], text: string, source: DocumentSource): LoadedDocument[] {
  const positions = new LazyFilePositions(text, source.file);
  const out: LoadedDocument[] = [];
  values.forEach((value, index) => {
    if (value === null || value === undefined) return;
    out.push({
      ...source,
      index,
      value,
      pos: (path: ValuePath = []) => positions.document(index).valuePos(path),
      keyPos: (path: ValuePath) => positions.document(index).keyPos(path),
      needlePos: (path: ValuePath, needle: string, occurrence: number) => positions.document(index).needlePos(path, needle, occurrence),
      textPos: (path: ValuePath, line: number, column: number) => positions.document(index).textPos(path, line, column),
    });
  });
  return out;
}

function parseCarefully(text: string, source: DocumentSource, diags: Diagnostics, aliases: AliasBudget): LoadedDocument[] {
  const { file } = source;
  const { LineCounter, parseAllDocuments } = yamlLibrary();
  const lines = new LineCounter();
  const at = (offset: number): SourcePos => {
    const { line, col } = lines.linePos(offset);
    return { file, line, column: col };
  };
  // The library's own duplicate-key check compares every pair of keys of a map (quadratic: seconds
  // for a map of 10,000 users); keyProblems() below does the same check in one pass. logLevel
  // 'error': the library would print its own warnings (quoting the text) on the process's stderr;
  // what they are about is reported here as diagnostics instead. The core schema whatever a
  // `%YAML` directive says (YAML 1.1 reads `yes` as true and knows `<<` merges), and no tags
  // beyond it (resolveKnownTags would read `!!binary` and `!!timestamp`).
  const documents = parseAllDocuments(text, {
    lineCounter: lines,
    prettyErrors: false,
    uniqueKeys: false,
    logLevel: 'error',
    schema: 'core',
    resolveKnownTags: false,
    merge: false,
  });
  const out: LoadedDocument[] = [];
  documents.forEach((doc, index) => {
    for (const warning of doc.warnings) {
      if (warning.code !== UNRESOLVED_TAG_WARNING) diags.warning(`YAML: ${warning.message}`, at(warning.pos[0]));
    }
    // Running out of stack may be caught at several depths (how many depends on Node's stack
    // size): it is one problem of the document, said once.
    let deepSaid = false;
    const hinted = new Set<number>();
    for (const error of doc.errors) {
      const problem = yamlProblem(error.message);
      if (problem === TOO_DEEP) {
        if (deepSaid) continue;
        deepSaid = true;
      }
      const hint = flowReferenceHint(text, error.pos[0], hinted);
      diags.error(`invalid YAML: ${problem}${hint}`, at(error.pos[0]));
    }
    if (doc.errors.length > 0) return;
    // A duplicate key leaves the document's structure sound: it loads (the last value wins), so
    // its other problems are reported in the same run; the error keeps anything from being applied.
    for (const p of keyProblems(doc)) diags.error(p.message, at(p.offset));
    // A tag outside the core schema: the document loads, so its other problems are said too.
    const tagged = tagProblems(doc, text);
    for (const p of tagged) diags.error(p.message, at(p.offset));
    const refused = tagged.flatMap((p) => (p.path === undefined ? [] : [p.path]));
    const version = doc.directives.yaml;
    if (version.explicit && version.version !== '1.2') {
      diags.error(`YAML: only YAML 1.2 is read (the core schema); remove the %YAML ${version.version} directive`, at(Math.max(0, text.lastIndexOf('%YAML', doc.range[0]))));
    }
    const alias = aliasProblem(doc, aliases);
    if (alias) {
      diags.error(alias.message, at(alias.offset));
      return;
    }
    let value: unknown;
    try {
      // aliasProblem() bounded what the aliases expand to; the library's count of them is not needed.
      value = doc.toJS({ maxAliasCount: -1 });
    } catch (e) {
      diags.error(`YAML: ${(e as Error).message}`, at(doc.range[0]));
      return;
    }
    if (value === null || value === undefined) return;
    const positions = new PositionIndex(nodeTreeSpots(doc.contents), file, lines, text);
    out.push({
      ...source,
      index,
      value,
      ...(refused.length > 0 ? { refused } : {}),
      pos: (path: ValuePath = []) => positions.valuePos(path),
      keyPos: (path: ValuePath) => positions.keyPos(path),
      needlePos: (path: ValuePath, needle: string, occurrence: number) => positions.needlePos(path, needle, occurrence),
      textPos: (path: ValuePath, line: number, column: number) => positions.textPos(path, line, column),
    });
  });
  return out;
}

/**
 * Keys that repeat within one map (each repetition after the first), in one pass per map, and
 * keys that are collections (`[a]: x`, `{a: 1}: x`), which no manifest field can be.
 */
function keyProblems(doc: Document.Parsed): Array<{ message: string; offset: number }> {
  const { isCollection, isScalar, visit } = yamlLibrary();
  const found: Array<{ message: string; offset: number }> = [];
  visit(doc, {
    Map(_, map) {
      const seen = new Set<string>();
      for (const pair of map.items) {
        if (isCollection(pair.key)) found.push({ message: 'a key must be text or a number, not a list or a mapping', offset: pair.key.range?.[0] ?? 0 });
        if (!isScalar(pair.key)) continue;
        const key = String(pair.key.value);
        if (seen.has(key)) found.push({ message: `duplicate key "${key}"`, offset: pair.key.range?.[0] ?? 0 });
        else seen.add(key);
      }
    },
  });
  return found;
}

/** The parser's message, but for running out of stack, which it reports in JavaScript's words. */
const TOO_DEEP = 'nested too deeply to read';

function yamlProblem(message: string): string {
  return message.includes('Maximum call stack size exceeded') ? TOO_DEEP : message;
}

/** A `${` right after `{`, `[`, `,` or a key inside one: an unquoted reference in a flow collection. */
const FLOW_REFERENCE = /[{[,]\s*(?:[^\s"'{}[\],:][^{}[\],:]*:\s+)?\$\{/;

/**
 * The hint for the first error on a line that holds a `${...}` reference unquoted inside `{ }` or
 * `[ ]`: YAML reads its `{` as the start of a mapping there, and the parser's own words ("missed
 * comma between flow collection entries") do not say what to do. Once per line.
 */
function flowReferenceHint(text: string, offset: number, hinted: Set<number>): string {
  const start = text.lastIndexOf('\n', offset - 1) + 1;
  if (hinted.has(start)) return '';
  const end = text.indexOf('\n', offset);
  if (!FLOW_REFERENCE.test(text.slice(start, end < 0 ? undefined : end))) return '';
  hinted.add(start);
  return '; a ${...} reference inside { } or [ ] must be quoted ("${env:NAME}"), or written in block style';
}
