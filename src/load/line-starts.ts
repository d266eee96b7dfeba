import type { LinePositions } from './positions.js';

/**
 * The 1-based line and column of an offset in a text, as the `yaml` library's LineCounter
 * gives them (a line starts after every `\n`; columns count UTF-16 units), without its parse.
 */
export class LineStarts implements LinePositions {
  readonly #starts: number[] = [0];

  constructor(text: string) {
    for (let at = text.indexOf('\n'); at !== -1; at = text.indexOf('\n', at + 1)) this.#starts.push(at + 1);
  }

  linePos(offset: number): { line: number; col: number } {
    // The last line start at or before the offset.
    let low = 0;
    let high = this.#starts.length - 1;
    while (low < high) {
      const mid = (low + high + 1) >> 1;
      if (this.#starts[mid]! <= offset) low = mid;
      else high = mid - 1;
    }
    return { line: low + 1, col: offset - this.#starts[low]! + 1 };
  }
}
