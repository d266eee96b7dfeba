import jsyaml from 'js-yaml';
import { YAML_CORE_SCHEMA } from './core-schema.js';

/** A directive line (`%YAML 1.1`, `%TAG`) changes how the rest of the file reads. */
const DIRECTIVE = /^%/m;

/**
 * The values of the documents of `text` by js-yaml, several times faster than the `yaml`
 * library, or undefined when this parser declines and the careful one must read the file:
 * anything it cannot read (every YAML error, a duplicate key, an unknown tag or alias), a
 * directive, aliases of collections (the careful parser bounds how far they expand), and keys
 * the two parsers turn into different strings. What it accepts, both parsers read to the same
 * values; it records no positions.
 */
export function parseFast(text: string): unknown[] | undefined {
  if (DIRECTIVE.test(text)) return undefined;
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
