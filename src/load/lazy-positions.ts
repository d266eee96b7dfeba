import { type ComposedNodes, composeNodes } from './composed-nodes.js';
import { composedSpots } from './composed-spots.js';
import { LineStarts } from './line-starts.js';
import { PositionIndex } from './positions.js';

/**
 * Positions of the values of one file read by the fast parser, worked out on first use: js-yaml
 * reads the file again, recording where it composed each node, and only when something asks
 * where a value is (in practice, when there is a diagnostic to report). A valid manifest never
 * pays for positions, and one that warns pays a second read by the fast parser, not a read by
 * the careful one (several times slower); each collection on an asked path is then read into
 * its entries once.
 */
export class LazyFilePositions {
  readonly #text: string;
  readonly #file: string;
  #nodes: ComposedNodes | undefined;
  #lines: LineStarts | undefined;
  readonly #indexes = new Map<number, PositionIndex>();

  constructor(text: string, file: string) {
    this.#text = text;
    this.#file = file;
  }

  /** The index of the document at `index` of the file (as parseFast() counts them). */
  document(index: number): PositionIndex {
    let positions = this.#indexes.get(index);
    if (!positions) {
      this.#nodes ??= composeNodes(this.#text);
      this.#lines ??= new LineStarts(this.#text);
      positions = new PositionIndex(composedSpots(this.#nodes, index, this.#text), this.#file, this.#lines, this.#text);
      this.#indexes.set(index, positions);
    }
    return positions;
  }
}
