import jsyaml from 'js-yaml';
import { YAML_CORE_SCHEMA } from './core-schema.js';

/** A directive line (`%YAML 1.1`, `%TAG`) changes how the rest of the file reads. */
const DIRECTIVE = /^%/m;

/** A carriage return not ending a line: js-yaml reads it as a line break, the careful parser as text. */
const BARE_CR = /\r(?!\n)/;

/** The non-specific tag `!` on an empty value: js-yaml reads null, the careful parser "". */
const BARE_TAG = /(?:^|[\s,[{])!(?:[\s,\]}]|$)/m;

/**
 * A list entry with nothing on its line (`-` alone): after one, js-yaml takes the next `-` at any
 * smaller indentation as part of the same list, where the careful parser reports bad indentation.
 */
const EMPTY_ENTRY = /^[ \t]*-[ \t]*(?:#.*)?$/m;

/**
 * Where a collection may be a key: an explicit key (`? `), a flow list closed before a `:`
 * (`[a]: x`), an alias before a `:`. js-yaml turns a one-item list key into its item (`[a]: x`
 * reads as `a: x`), where the careful parser reports it. Text in a value that looks like this
 * only sends the file to the careful parser.
 */
const COLLECTION_KEY = /(?:^|[\s,[{])\?(?:\s|$)|\]\s*:(?:\s|$)|\*[^\s,[\]{}]+\s*:(?:\s|$)/m;

/** Forms the fast parser leaves to the careful one (each a whole-text scan, cheap next to parsing). */
const DECLINED = [DIRECTIVE, BARE_CR, BARE_TAG, EMPTY_ENTRY, COLLECTION_KEY];

/**
 * The values of the documents of `text` by js-yaml, several times faster than the `yaml`
 * library, or undefined when this parser declines and the careful one must read the file:
 * anything it cannot read (every YAML error, a duplicate key, an unknown tag or alias), the
 * forms of DECLINED, aliases of collections (the careful parser bounds how far they expand),
 * and keys the two parsers turn into different strings. What it accepts, both parsers read to
 * the same values (the loader fuzz test checks it); it records no positions.
 */
export function parseFast(text: string): unknown[] | undefined {
  if (DECLINED.some((form) => form.test(text))) return undefined;
  let documents: unknown[];
  try {
    documents = jsyaml.loadAll(text, undefined, { schema: YAML_CORE_SCHEMA });
  } catch {
    return undefined;
  }
  // Without a `*` in the text there is no alias, so no node can be reached twice.
  return isPlainTree(documents, text.includes('*')) ? documents : undefined;
}

/**
 * Keys whose string form differs between the parsers: a null key (js-yaml "null", the careful
 * parser ""), and collections as keys (js-yaml "a,b" and "[object Object]").
 */
function isAmbiguousKey(key: string): boolean {
  return key === '' || key === 'null' || key.includes(',') || key.includes('[object Object]');
}

/**
 * True when no array or object is reached twice (js-yaml shares the node an alias names) and no
 * key is ambiguous. `mayAlias`: whether nodes can be shared at all (else none is remembered).
 */
function isPlainTree(root: unknown, mayAlias: boolean): boolean {
  const seen = mayAlias ? new Set<object>() : undefined;
  const stack: unknown[] = [root];
  while (stack.length > 0) {
    const node = stack.pop();
    if (node === null || typeof node !== 'object') continue;
    if (seen) {
      if (seen.has(node)) return false;
      seen.add(node);
    }
    if (Array.isArray(node)) for (const item of node) stack.push(item);
    else {
      for (const key in node) {
        if (isAmbiguousKey(key)) return false;
        stack.push((node as Record<string, unknown>)[key]);
      }
    }
  }
  return true;
}
