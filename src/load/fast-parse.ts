import jsyaml from 'js-yaml';
import { YAML_CORE_SCHEMA } from './core-schema.js';

/** A directive line (`%YAML 1.1`, `%TAG`) changes how the rest of the file reads. */
const DIRECTIVE = /^%/m;

/**
 * Texts the two parsers read differently; the fast one leaves them to the careful one. Each test
 * looks for a character first (a fast scan), so a manifest without it pays almost nothing.
 */
const DECLINED: ReadonlyArray<(text: string) => boolean> = [
  // A carriage return not ending a line: js-yaml reads a line break, the careful parser text.
  (text) => text.includes('\r') && /\r(?!\n)/.test(text),
  // A tab in a line's indentation (list dashes included): js-yaml may take it as space, the
  // careful parser reports it.
  (text) => text.includes('\t') && /^[ \t-]*\t/m.test(text),
  // A quoted value left open at the end of its line: js-yaml takes continuation lines at any
  // indentation, where the careful parser wants them indented under their key.
  (text) => text.includes('"') && /(?:^|[\s[{,:])"(?:[^"\\\n]|\\.)*\\?$/m.test(text),
  (text) => text.includes("'") && /(?:^|[\s[{,:])'[^'\n]*$/m.test(text),
  // A document end marker (`...`): js-yaml reads what follows it on its line.
  (text) => text.includes('...') && /^\.\.\./m.test(text),
  // A block scalar with an indentation indicator (`|2`, `>-1`): the parsers count it differently.
  (text) => (text.includes('|') || text.includes('>')) && /[|>][-+]?[0-9]/.test(text),
  // A tag or an anchor, then a key on the same line (`a: !!str b: c`): js-yaml reads a mapping
  // there (dropping the tag), where the careful parser reports it.
  (text) => (text.includes('!') || text.includes('&')) && /(?:^|[\s[{,])[!&]\S*[ \t]+[^\n]*?:(?:[ \t]|$)/m.test(text),
  // A `#` right after a quoted value or a flow indicator: not a comment to the careful parser (it needs a
  // space before it), a comment to js-yaml.
  (text) => text.includes('#') && /["'[\]{},]#/.test(text),
  // The non-specific tag `!` on an empty value (js-yaml reads null, the careful parser ""), and a
  // tag or an anchor that ends its line (js-yaml drops or misplaces it).
  (text) => text.includes('!') && /(?:^|[\s,[{])!(?:[\s,\]}]|$)/m.test(text),
  (text) => (text.includes('!') || text.includes('&')) && /(?:^|[\s[{,])[!&]\S*[ \t]*(?:#.*)?\r?$/m.test(text),
  // A line that starts with three dashes and is not a document marker (`----`, `---1`): js-yaml
  // reads a marker there, the careful parser text.
  (text) => text.includes('---') && /^---[^\s]/m.test(text),
  // A list entry alone on its line (`-`): after one, js-yaml takes the next `-` at any smaller
  // indentation as part of the same list, where the careful parser reports bad indentation.
  hasLoneListEntry,
  // A key that may be a collection: an explicit key (`? `), a flow list closed before a `:`,
  // an alias before a `:`. js-yaml turns a one-item list key into its item (`[a]: x` reads as
  // `a: x`), where the careful parser reports it.
  (text) => text.includes('?') && /(?:^|[\s,[{])\?(?:\s|$)/m.test(text),
  (text) => /\]\s*:/.test(text),
  (text) => text.includes('*') && /\*[^\s,[\]{}]+\s*:(?:\s|$)/.test(text),
  // An alias: the careful parser measures what aliases expand to (load/alias-expansion.ts).
  // Every `*` after a space or a flow indicator: some are inside text, which only costs speed.
  (text) => text.includes('*') && /(?:^|[\s,[{:])\*/m.test(text),
];

/**
 * A list entry with nothing after it on its line (`-`, `- -`; spaces and a comment aside), not
 * the document marker `---`. A loop over the dashes: a regex anchored at every line start costs more.
 */
function hasLoneListEntry(text: string): boolean {
  for (let dash = text.indexOf('-'); dash !== -1; dash = text.indexOf('-', dash + 1)) {
    let after = dash + 1;
    while (text[after] === ' ' || text[after] === '\t') after++;
    if (text[after] === '#') after = text.indexOf('\n', after) === -1 ? text.length : text.indexOf('\n', after);
    if (after < text.length && text[after] !== '\n' && text[after] !== '\r') continue;
    let before = dash - 1;
    while (text[before] === ' ' || text[before] === '\t' || text[before] === '-') before--;
    if (before >= 0 && text[before] !== '\n') continue;
    const line = text.slice(before + 1, after).trimEnd();
    if (line !== '---') return true;
  }
  return false;
}

/**
 * The values of the documents of `text` by js-yaml, several times faster than the `yaml`
 * library, or undefined when this parser declines and the careful one must read the file:
 * anything it cannot read (every YAML error, a duplicate key, a tag outside the core schema, an
 * unknown alias), the forms of DECLINED (aliases among them: the careful parser bounds how far
 * they expand),
 * and keys the two parsers turn into different strings. What it accepts, both parsers read to
 * the same values (the loader fuzz test checks it); it records no positions.
 */
export function parseFast(text: string): unknown[] | undefined {
  if (DIRECTIVE.test(text) || DECLINED.some((declines) => declines(text))) return undefined;
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
