/**
 * A list normaliser's results by what was written. Thousands of users name the same few policy
 * and group lists: each distinct list is normalised once and its result shared (frozen, so no
 * holder can change it for the others). A text, or no value, is looked up by itself, a list of
 * texts item by item down a tree (no key text is built, and no two lists share a key whatever
 * their items hold); anything else (numbers, lists holding other values) is normalised each time.
 */
export class ListMemo {
  readonly #normalise: (value: unknown) => string[];
  readonly #texts = new Map<string, readonly string[]>();
  #absent: readonly string[] | undefined;
  readonly #lists: ItemNode = {};

  /** `normalise` must depend on its argument alone. */
  constructor(normalise: (value: unknown) => string[]) {
    this.#normalise = normalise;
  }

  of(value: unknown): readonly string[] {
    if (typeof value === 'string') {
      let result = this.#texts.get(value);
      if (result === undefined) this.#texts.set(value, (result = Object.freeze(this.#normalise(value))));
      return result;
    }
    if (value === undefined) return (this.#absent ??= Object.freeze(this.#normalise(value)));
    if (!Array.isArray(value)) return Object.freeze(this.#normalise(value));
    let node = this.#lists;
    for (let i = 0; i < value.length; i++) {
      const item: unknown = value[i];
      if (typeof item !== 'string') return Object.freeze(this.#normalise(value));
      const next = (node.next ??= new Map<string, ItemNode>());
      let child = next.get(item);
      if (child === undefined) next.set(item, (child = {}));
      node = child;
    }
    return (node.result ??= Object.freeze(this.#normalise(value)));
  }
}

/** The lists written so far that begin with the items on the way here. */
interface ItemNode {
  next?: Map<string, ItemNode>;
  /** The normalised list of exactly the items on the way here. */
  result?: readonly string[];
}
