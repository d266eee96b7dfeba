import type { SourcePos } from '../core/diagnostics.js';
import type { ValuePath } from './document.js';
import { pathKey } from './value-path.js';
import { yamlLibrary } from './yaml-library.js';

/** Source offsets of one value (where it starts and ends) and (for map entries) of its key, and how a text value is written. */
export interface Spot {
  value: number;
  valueEnd: number;
  key?: number;
  /** The scalar's style (`BLOCK_LITERAL`, `PLAIN`, ...) when the value is text. */
  style?: string;
  /** A literal block scalar's text (the same string the document holds: nothing copied). */
  literal?: string;
}

/** Where the value at a path is written, if the document holds that path. */
export type SpotLookup = (path: ValuePath) => Spot | undefined;

/** 1-based line and column of an offset (the `yaml` library's LineCounter, or LineStarts). */
export interface LinePositions {
  linePos(offset: number): { line: number; col: number };
}

/**
 * Positions of the values and keys of one YAML document, by value path, from the spots of its
 * values: those of the careful parser's node tree (nodeTreeSpots) or of the fast parser's
 * composed nodes (load/composed-spots.ts), which give the same offsets.
 */
export class PositionIndex {
  readonly #spot: SpotLookup;
  readonly #file: string;
  readonly #lines: LinePositions;
  readonly #text: string;

  constructor(spot: SpotLookup, file: string, lines: LinePositions, text: string) {
    this.#spot = spot;
    this.#file = file;
    this.#lines = lines;
    this.#text = text;
  }

  /**
   * Where `line` and `column` (1-based) of the text value at `path` are written in the file, for
   * the forms whose text maps one to one onto the file: a literal block scalar (`|`, `|-`, `|+`,
   * any indentation: its Nth line is the Nth line after the header, shifted by the indentation)
   * and a one-line plain or single-quoted scalar. Undefined otherwise (a folded or double-quoted
   * text, whose folds and escapes move characters; a value that is not text).
   */
  textPos(path: ValuePath, line: number, column: number): SourcePos | undefined {
    const spot = this.#spot(path);
    if (spot?.style === undefined) return undefined;
    switch (spot.style) {
      case 'BLOCK_LITERAL':
        return this.#literalPos(spot.value, spot.literal ?? '', line, column);
      case 'PLAIN':
      case 'QUOTE_SINGLE': {
        const offset = spot.value + (spot.style === 'QUOTE_SINGLE' ? 1 : 0);
        const written = this.#sourceLine(offset);
        // One line, and no '' escape before the column: the characters are the file's.
        if (line !== 1 || (spot.style === 'QUOTE_SINGLE' && this.#text.slice(offset, offset + column).includes("''"))) return undefined;
        if (offset - written.start + column - 1 > written.text.length) return undefined;
        return this.#toPos(offset + column - 1);
      }
      default:
        return undefined;
    }
  }

  /**
   * The value's line `line` is the file's line `line` after the header (`|` and what follows it
   * on its line), indented by the block's indentation: what the file's line holds before the
   * value's line, measured on the first line that is not empty (the value's lines may start
   * with spaces of their own, and an indentation indicator may set it).
   */
  #literalPos(header: number, value: string, line: number, column: number): SourcePos | undefined {
    const valueLines = value.split('\n');
    // The end of a text that ends with a line break (a parser's "unexpected end"): the end of its
    // last line, not the file's next line, which is no longer the block's.
    if (line === valueLines.length && valueLines.length > 1 && value.endsWith('\n')) {
      line -= 1;
      column = valueLines[line - 1]!.length + 1;
    }
    const measured = valueLines.findIndex((l) => l !== '');
    if (measured === -1 || line < 1 || line > valueLines.length) return undefined;
    const starts = this.#lineStartsAfter(header, Math.max(line, measured + 1));
    if (starts === undefined) return undefined;
    const indent = this.#sourceLine(starts[measured]!).text.length - valueLines[measured]!.length;
    const written = this.#sourceLine(starts[line - 1]!).text;
    return this.#toPos(starts[line - 1]! + Math.max(0, Math.min(indent + column - 1, written.length)));
  }

  /** The start offsets of the `count` lines after the one holding `offset`; undefined when the file ends first. */
  #lineStartsAfter(offset: number, count: number): number[] | undefined {
    const starts: number[] = [];
    let at = offset;
    while (starts.length < count) {
      const end = this.#text.indexOf('\n', at);
      if (end === -1) return undefined;
      at = end + 1;
      starts.push(at);
    }
    return starts;
  }

  /** The file's line holding `offset`: its start offset and its text (no line break). */
  #sourceLine(offset: number): { start: number; text: string } {
    const start = this.#text.lastIndexOf('\n', offset - 1) + 1;
    const end = this.#text.indexOf('\n', offset);
    return { start, text: this.#text.slice(start, end === -1 ? undefined : end).replace(/\r$/, '') };
  }

  /** Position of the value at `path`, or of its nearest recorded ancestor. */
  valuePos(path: ValuePath): SourcePos {
    for (let n = path.length; n >= 0; n--) {
      const spot = this.#spot(path.slice(0, n));
      if (spot) return this.#toPos(spot.value);
    }
    return { file: this.#file, line: 1, column: 1 };
  }

  /** Position of the key at `path`; the value's position when there is no key there. */
  keyPos(path: ValuePath): SourcePos {
    const spot = this.#spot(path);
    return spot?.key !== undefined ? this.#toPos(spot.key) : this.valuePos(path);
  }

  /** See LoadedDocument.needlePos. */
  needlePos(path: ValuePath, needle: string, occurrence: number): SourcePos {
    const spot = this.#spot(path);
    if (!spot || needle === '') return this.valuePos(path);
    let at = spot.value - needle.length;
    for (let n = 0; n <= occurrence; n++) {
      at = this.#text.indexOf(needle, at + needle.length);
      if (at === -1 || at + needle.length > spot.valueEnd) return this.valuePos(path);
    }
    return this.#toPos(at);
  }

  #toPos(offset: number): SourcePos {
    const { line, col } = this.#lines.linePos(offset);
    return { file: this.#file, line, column: col };
  }
}

/**
 * The spots of every value and key of a careful parser's document, by value path. Built once
 * from the node tree; aliases are recorded where they are written (their targets are not descended).
 */
export function nodeTreeSpots(root: unknown): SpotLookup {
  const spots = new Map<string, Spot>();
  const walk = (node: unknown, path: ValuePath, keyOffset: number | undefined): void => {
    const { isMap, isPair, isScalar, isSeq } = yamlLibrary();
    const range = rangeOf(node);
    const valueOffset = range?.[0] ?? keyOffset;
    const text = isScalar(node) && typeof node.value === 'string' ? { style: node.type, literal: node.type === 'BLOCK_LITERAL' ? node.value : undefined } : {};
    if (valueOffset !== undefined) spots.set(pathKey(path), { value: valueOffset, valueEnd: range?.[1] ?? valueOffset, key: keyOffset, ...text });
    if (isMap(node)) {
      for (const pair of node.items) {
        if (!isPair(pair)) continue;
        const key = isScalar(pair.key) ? String(pair.key.value) : String(pair.key);
        walk(pair.value, [...path, key], offsetOf(pair.key));
      }
    } else if (isSeq(node)) {
      node.items.forEach((item, i) => walk(item, [...path, i], undefined));
    }
  };
  walk(root, [], undefined);
  return (path) => spots.get(pathKey(path));
}

function rangeOf(node: unknown): [number, number, number] | undefined {
  return (node as { range?: [number, number, number] } | null | undefined)?.range;
}

function offsetOf(node: unknown): number | undefined {
  return rangeOf(node)?.[0];
}
