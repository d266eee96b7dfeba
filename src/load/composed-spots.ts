import type { ComposedNodes } from './composed-nodes.js';
import type { ValuePath } from './document.js';
import type { Spot, SpotLookup } from './positions.js';

/** What one step of a value path reaches. */
type Value =
  /** A node js-yaml composed; `afterColon`: just after its key's `:`, where an empty value is. */
  | { form: 'node'; node: number; afterColon?: number }
  /** A flow list's item written as one key and value (`[a: 1]`): a mapping of that one entry. */
  | { form: 'pair'; key: number; value: Value }
  /** A flow mapping's key with no `:` (`{a}`): its null value is said to be at the key. */
  | { form: 'absent'; key: number };

interface Entry {
  /** The key's node, for a mapping's entry. */
  key?: number;
  value: Value;
}

// Separation space as js-yaml skips it (spaces, tabs, line breaks, comments), and node properties.
const SEPARATION = /(?:[ \t\r\n]|#[^\r\n]*)*/y;
const PROPERTIES = /(?:(?:!<[^>]*>|![^ \t\r\n]*|&[^ \t\r\n,[\]{}]+)(?:[ \t\r\n]|#[^\r\n]*)*)*/y;
const SPACES = /[ \t]*/y;
const PROPERTIES_ON_LINE = /(?:(?:!<[^>]*>|![^ \t\r\n]*|&[^ \t\r\n,[\]{}]+)[ \t]*)*/y;

/**
 * The spots of the values of one document that js-yaml composed, found by walking down the
 * asked path only: each collection on the way is read into its entries once, on first use.
 * Offsets are those of the `yaml` library's node ranges (where a value starts, where a key
 * starts), which positions.ts's nodeTreeSpots gives for the careful parser:
 * test/load/composed-spots.test.ts compares both on every path of every YAML file of the
 * repository and on generated documents.
 */
export function composedSpots(nodes: ComposedNodes, document: number, text: string): SpotLookup {
  const node = nodes.documents[document];
  if (node === undefined) return () => undefined;
  const reader = new ComposedDocument(nodes, text);
  const root: Value = { form: 'node', node };
  return (path) => reader.spot(root, path);
}

class ComposedDocument {
  readonly #nodes: ComposedNodes;
  readonly #text: string;
  readonly #entries = new Map<number, Map<string, Entry>>();

  constructor(nodes: ComposedNodes, text: string) {
    this.#nodes = nodes;
    this.#text = text;
  }

  spot(root: Value, path: ValuePath): Spot | undefined {
    let value = root;
    let key: number | undefined;
    for (const segment of path) {
      const entry = this.#entry(value, String(segment));
      if (!entry) return undefined;
      value = entry.value;
      key = entry.key;
    }
    return this.#spotOf(value, key === undefined ? undefined : this.#contentStart(key));
  }

  #entry(value: Value, segment: string): Entry | undefined {
    switch (value.form) {
      case 'absent':
        return undefined;
      case 'pair':
        return String(this.#nodes.values[value.key]) === segment ? { key: value.key, value: value.value } : undefined;
      case 'node': {
        const node = this.#unwrapped(value.node);
        let entries = this.#entries.get(node);
        if (!entries) {
          entries = this.#readEntries(node);
          this.#entries.set(node, entries);
        }
        return entries.get(segment);
      }
    }
  }

  /** The entries of a collection node by key (a list's by index); none for a scalar. */
  #readEntries(node: number): Map<string, Entry> {
    const entries = new Map<string, Entry>();
    const collection = this.#nodes.values[node];
    if (collection === null || typeof collection !== 'object') return entries;
    const children = this.#children(node);
    const flow = '[{'.includes(this.#text[this.#contentStart(node)] ?? ' ');
    const isList = Array.isArray(collection);
    for (let i = 0; i < children.length; i++) {
      const child = children[i]!;
      if (!flow) {
        // A block mapping composes a key, then its value (empty or not); a list, its items.
        if (isList) entries.set(String(entries.size), { value: { form: 'node', node: child } });
        else if (i + 1 < children.length) {
          const value = children[++i]!;
          entries.set(this.#keyText(child), { key: child, value: { form: 'node', node: value, afterColon: this.#nodes.opens[value] } });
        }
        continue;
      }
      // In a flow collection a value follows its key's `:`; a key may have none.
      const colon = this.#colonAfter(child);
      const value: Value | undefined = colon !== undefined && i + 1 < children.length ? { form: 'node', node: children[++i]!, afterColon: colon + 1 } : undefined;
      if (isList) entries.set(String(entries.size), { value: value ? { form: 'pair', key: child, value } : { form: 'node', node: child } });
      else entries.set(this.#keyText(child), { key: child, value: value ?? { form: 'absent', key: child } });
    }
    return entries;
  }

  #spotOf(value: Value, key: number | undefined): Spot {
    switch (value.form) {
      case 'absent': {
        const at = this.#contentStart(value.key);
        return { value: at, valueEnd: at, key };
      }
      case 'pair':
        return { value: this.#contentStart(value.key), valueEnd: this.#spotOf(value.value, undefined).valueEnd, key };
      case 'node': {
        const { node } = value;
        const written = this.#nodes.values[node];
        const start = this.#contentStart(node);
        if (written === null && this.#nodes.closes[node]! <= start) {
          // Nothing written: the empty value is where the line goes on after the `:` (and properties).
          const at = this.#skip(PROPERTIES_ON_LINE, this.#skip(SPACES, value.afterColon ?? this.#nodes.opens[node]!));
          return { value: at, valueEnd: at, key };
        }
        const valueEnd = this.#endOf(node, start);
        if (typeof written !== 'string') return { value: start, valueEnd, key };
        const style = STYLES[this.#text[start] ?? ''] ?? 'PLAIN';
        return { value: start, valueEnd, key, style, literal: style === 'BLOCK_LITERAL' ? written : undefined };
      }
    }
  }

  /** Where a node's text ends. */
  #endOf(node: number, start: number): number {
    const unwrapped = this.#unwrapped(node);
    const close = this.#nodes.closes[unwrapped]!;
    if ('[{'.includes(this.#text[start] ?? ' ')) return close;
    let end = close;
    while (end > start && ' \t\r\n'.includes(this.#text[end - 1]!)) end--;
    return end;
  }

  /**
   * The node itself, or, where js-yaml read it as the first key of a block mapping that turned
   * out to be none (`- [a]`, `- {a: 1}`), the node it read there: the same collection.
   */
  #unwrapped(node: number): number {
    const { values, lastInside } = this.#nodes;
    let at = node;
    while (values[at] !== null && typeof values[at] === 'object' && lastInside[at]! > at && values[at + 1] === values[at]) at++;
    return at;
  }

  #children(node: number): number[] {
    const out: number[] = [];
    const last = this.#nodes.lastInside[node]!;
    for (let child = node + 1; child <= last; child = this.#nodes.lastInside[child]! + 1) out.push(child);
    return out;
  }

  /** The key as js-yaml stores it. */
  #keyText(node: number): string {
    return String(this.#nodes.values[node]);
  }

  /** The offset of the `:` after a node in a flow collection, if one follows it. */
  #colonAfter(node: number): number | undefined {
    const at = this.#skip(SEPARATION, this.#nodes.closes[node]!);
    return this.#text[at] === ':' ? at : undefined;
  }

  /** Where a node's own text starts: past the separation space and properties js-yaml skipped. */
  #contentStart(node: number): number {
    return this.#skip(PROPERTIES, this.#skip(SEPARATION, this.#nodes.opens[node]!));
  }

  #skip(pattern: RegExp, from: number): number {
    pattern.lastIndex = from;
    pattern.test(this.#text);
    return pattern.lastIndex;
  }
}

/** The `yaml` library's names of the scalar styles, by the character a scalar starts with. */
const STYLES: Record<string, string> = { '|': 'BLOCK_LITERAL', '>': 'BLOCK_FOLDED', "'": 'QUOTE_SINGLE', '"': 'QUOTE_DOUBLE' };
