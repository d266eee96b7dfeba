import type { SourcePos } from '../core/diagnostics.js';

/** JSON path inside a document: object keys and array indexes. */
export type ValuePath = ReadonlyArray<string | number>;

/**
 * One YAML document as loaded: plain values (references still as `${...}` text) plus the
 * source position of every value, so any later stage can point at the exact line and column.
 */
export interface LoadedDocument {
  /** The file path as the user gave it (relative display form). */
  file: string;
  /** Absolute path of the file (references resolve relative to its folder). */
  absoluteFile: string;
  /**
   * The absolute directory given on the command line that led to the file: outside a git work
   * tree, `${file:}` references must stay inside it. Absent: the file's own folder.
   */
  givenDir?: string;
  /** 0-based index of the document within its file. */
  index: number;
  /** The parsed value (usually an object). */
  value: unknown;
  /**
   * Values the loader refused, already reported (a tag outside the core schema): later stages
   * leave them out rather than report them again (validate/salvage.ts).
   */
  refused?: readonly ValuePath[];
  /** Position of the value at `path`; the nearest existing ancestor when the path is absent. */
  pos(path?: ValuePath): SourcePos;
  /** Position of the key (not the value) at `path`; falls back to pos(path). */
  keyPos(path: ValuePath): SourcePos;
  /**
   * Position of the `occurrence`-th (from 0) `needle` in the source text of the value at
   * `path` (a line within a block scalar); pos(path) when the source does not hold it there
   * (the value came from a reference, or its quoting split the needle).
   */
  needlePos(path: ValuePath, needle: string, occurrence: number): SourcePos;
  /**
   * Where line `line`, column `column` (1-based) of the text value at `path` is written (a
   * policy's parse error, inside its block scalar); undefined where the written form does not
   * map onto the text one to one (a folded or double-quoted value): then say it at pos(path).
   */
  textPos(path: ValuePath, line: number, column: number): SourcePos | undefined;
}

/**
 * A document after schema validation and reference resolution: `data` holds resolved values,
 * with every secret field as a Secret (see core/secret.ts). `data` is a fresh copy.
 */
export interface ResolvedDocument<T = Record<string, unknown>> {
  source: LoadedDocument;
  kind: string;
  data: T;
}
