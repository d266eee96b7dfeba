import type { LineCounter } from 'yaml';
import type { SourcePos } from '../core/diagnostics.js';
import type { ValuePath } from './document.js';
import { pathKey } from './value-path.js';
import { yamlLibrary } from './yaml-library.js';

/** Source offsets of one value (where it starts and ends) and (for map entries) of its key. */
interface Spot {
  value: number;
  valueEnd: number;
  key?: number;
}

/**
 * Positions of every value and key of one YAML document, by value path. Built once from the
 * node tree; aliases are recorded where they are written (their targets are not descended).
 */
export class PositionIndex {
  readonly #spots = new Map<string, Spot>();
  readonly #file: string;
  readonly #lines: LineCounter;
  readonly #text: string;

  constructor(root: unknown, file: string, lines: LineCounter, text: string) {
    this.#file = file;
    this.#lines = lines;
    this.#text = text;
    this.#walk(root, [], undefined);
  }

  /** Position of the value at `path`, or of its nearest recorded ancestor. */
  valuePos(path: ValuePath): SourcePos {
    for (let n = path.length; n >= 0; n--) {
      const spot = this.#spots.get(pathKey(path.slice(0, n)));
      if (spot) return this.#toPos(spot.value);
    }
    return { file: this.#file, line: 1, column: 1 };
  }

  /** Position of the key at `path`; the value's position when there is no key there. */
  keyPos(path: ValuePath): SourcePos {
    const spot = this.#spots.get(pathKey(path));
    return spot?.key !== undefined ? this.#toPos(spot.key) : this.valuePos(path);
  }

  /** See LoadedDocument.textPos. */
  textPos(path: ValuePath, needle: string, occurrence: number): SourcePos {
    const spot = this.#spots.get(pathKey(path));
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

  #walk(node: unknown, path: ValuePath, keyOffset: number | undefined): void {
    const { isMap, isPair, isScalar, isSeq } = yamlLibrary();
    const range = rangeOf(node);
    const valueOffset = range?.[0] ?? keyOffset;
    if (valueOffset !== undefined) this.#spots.set(pathKey(path), { value: valueOffset, valueEnd: range?.[1] ?? valueOffset, key: keyOffset });
    if (isMap(node)) {
      for (const pair of node.items) {
        if (!isPair(pair)) continue;
        const key = isScalar(pair.key) ? String(pair.key.value) : String(pair.key);
        this.#walk(pair.value, [...path, key], offsetOf(pair.key));
      }
    } else if (isSeq(node)) {
      node.items.forEach((item, i) => this.#walk(item, [...path, i], undefined));
    }
  }
}

function rangeOf(node: unknown): [number, number, number] | undefined {
  return (node as { range?: [number, number, number] } | null | undefined)?.range;
}

function offsetOf(node: unknown): number | undefined {
  return rangeOf(node)?.[0];
}
