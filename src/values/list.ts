import { numberLiteral, refused, value, type Read } from './read.js';

/**
 * Comma lists as the service reads a TypeCommaStringSlice field (parseutil.ParseCommaStringSlice,
 * hashicorp/go-secure-stdlib parseutil/parseutil.go): "" is no items; a text is split at every
 * comma; an array gives one item per element (not split: mapstructure's StringToSliceHookFunc
 * only splits a text); a single number or boolean is one item; every item trimmed of Go's
 * white space (strutil.TrimStrings) and nothing else: empty items, case, order and repeats stay.
 */
export function readCommaList(input: unknown): Read<string[]> {
  if (input === '') return value([]);
  if (typeof input === 'string') return value(input.split(',').map(goTrimSpace));
  if (Array.isArray(input)) {
    const items: string[] = [];
    for (const element of input) {
      const text = weakText(element);
      if (text === undefined) return refused('list items must be strings');
      items.push(goTrimSpace(text));
    }
    return value(items);
  }
  if (input === null) return value([]);
  const single = weakText(input);
  return single === undefined ? refused('expected a list') : value([goTrimSpace(single)]);
}

/** The items, or undefined when the service refuses the value. */
export function commaListOf(input: unknown): string[] | undefined {
  const read = readCommaList(input);
  return read.kind === 'value' ? read.value : undefined;
}

/** mapstructure's weak decoding of one value into a string: numbers as their text, booleans "1"/"0". */
function weakText(element: unknown): string | undefined {
  if (typeof element === 'string') return element;
  const number = numberLiteral(element);
  if (number !== undefined) return number;
  if (typeof element === 'boolean') return element ? '1' : '0';
  if (element === null) return '';
  return undefined;
}

/** Go's strings.TrimSpace: Unicode white space (with U+0085, without U+FEFF, unlike String.trim). */
const GO_SPACE = '[\\t\\n\\v\\f\\r \\u0085\\u00a0\\u1680\\u2000-\\u200a\\u2028\\u2029\\u202f\\u205f\\u3000]';
const GO_TRIM = new RegExp(`^${GO_SPACE}+|${GO_SPACE}+$`, 'g');
const IS_GO_SPACE = new RegExp(`^${GO_SPACE}$`);

/** Whether the character at `i` is Go white space; printable ASCII (nearly every end of every item) without a regex. */
function isGoSpaceAt(text: string, i: number): boolean {
  const code = text.charCodeAt(i);
  if (code > 0x20 && code < 0x7f) return false;
  return IS_GO_SPACE.test(text[i]!);
}

export function goTrimSpace(text: string): string {
  // Nearly every item has no space at either end: two one-character tests, and no new string.
  if (text === '' || (!isGoSpaceAt(text, 0) && !isGoSpaceAt(text, text.length - 1))) return text;
  return text.replace(GO_TRIM, '');
}

/** Byte-wise order, as Go's sort.Strings (equal to code-unit order outside surrogate pairs). */
export function compareBytes(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
