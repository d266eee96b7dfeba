import { PositionIndex } from './positions.js';
import { yamlLibrary } from './yaml-library.js';

/**
 * Positions of the values of one file read by the fast parser, worked out on first use: the
 * careful parser reads the file once, and only when something asks where a value is (in
 * practice, when there is a diagnostic to report). A valid manifest never pays for positions.
 */
export class LazyFilePositions {
  readonly #text: string;
  readonly #file: string;
  #indexes: PositionIndex[] | undefined;

  constructor(text: string, file: string) {
    this.#text = text;
    this.#file = file;
  }

  /** The index of the document at `index` of the file (both parsers count documents alike). */
  document(index: number): PositionIndex {
    if (!this.#indexes) {
      const { LineCounter, parseAllDocuments } = yamlLibrary();
      const lines = new LineCounter();
      const documents = parseAllDocuments(this.#text, { lineCounter: lines, prettyErrors: false, uniqueKeys: false });
      this.#indexes = documents.map((doc) => new PositionIndex(doc.contents, this.#file, lines, this.#text));
    }
    return this.#indexes[index] ?? new PositionIndex(undefined, this.#file, new (yamlLibrary().LineCounter)(), this.#text);
  }
}
