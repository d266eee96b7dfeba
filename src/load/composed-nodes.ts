import jsyaml from 'js-yaml';
import { YAML_CORE_SCHEMA } from './core-schema.js';

/**
 * Every node js-yaml composed while reading a text, numbered in the order it began them (so the
 * nodes inside node `i` are `i + 1` to `lastInside[i]`), with where it began and ended reading
 * each and the value it made. Offsets are the text's as given (js-yaml drops a byte order mark
 * first; it is counted back here).
 *
 * js-yaml also opens a node for what it only tries: a block mapping's first key read where a
 * scalar or a flow collection turns out to stand alone (the same value, one level down), and a
 * key it could not read (nothing, before a block scalar). composed-spots.ts reads past both.
 */
export interface ComposedNodes {
  /** Where js-yaml began the node: before the separation space (line breaks, comments) it skips. */
  readonly opens: Int32Array;
  /** Where it ended: after the node, and after spaces it looked past for a `:`. */
  readonly closes: Int32Array;
  /** The last node inside node `i`; `i` when none. */
  readonly lastInside: Int32Array;
  /** The value js-yaml made of the node (a key's value before js-yaml makes it a string). */
  readonly values: readonly unknown[];
  /** The outermost node of each document, in document order (js-yaml composes one per document). */
  readonly documents: readonly number[];
}

/**
 * Reads `text` again with js-yaml, as parseFast() did, recording every node it composes (its
 * `listener` option reports the opening and closing of each). Only for a text parseFast()
 * accepted: the same parser and schema read it the same way, without error.
 */
export function composeNodes(text: string): ComposedNodes {
  const shift = text.charCodeAt(0) === 0xfeff ? 1 : 0;
  // Typed arrays, grown by doubling: the listener runs for every node of the file (about ten per
  // line of a manifest of users), and plain arrays pushed four times a node cost a third more.
  let opens: Int32Array = new Int32Array(1024);
  let closes: Int32Array = new Int32Array(1024);
  let lastInside: Int32Array = new Int32Array(1024);
  const values: unknown[] = [];
  const documents: number[] = [];
  const open: number[] = [];
  let count = 0;
  jsyaml.loadAll(text, undefined, {
    schema: YAML_CORE_SCHEMA,
    listener(event, state) {
      // js-yaml reads the text with a line break added when it has none at its end: positions
      // past the text's end are its end.
      const at = Math.min(state.position + shift, text.length);
      if (event === 'open') {
        if (count === opens.length) {
          opens = grown(opens);
          closes = grown(closes);
          lastInside = grown(lastInside);
        }
        if (open.length === 0) documents.push(count);
        open.push(count);
        opens[count++] = at;
      } else {
        const node = open.pop()!;
        closes[node] = at;
        lastInside[node] = count - 1;
        values[node] = state.result;
      }
    },
  });
  return { opens, closes, lastInside, values, documents };
}

function grown(array: Int32Array): Int32Array {
  const bigger = new Int32Array(array.length * 2);
  bigger.set(array);
  return bigger;
}
