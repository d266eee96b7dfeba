import { numberLiteral, refused, value, type Read } from './read.js';

/**
 * Booleans as the service reads a bool field (sdk/framework/field_data.go TypeBool:
 * mapstructure.WeakDecode, which is parseutil.ParseBool's rule too): a boolean; text by Go's
 * strconv.ParseBool ("1", "t", "T", "TRUE", "true", "True" and the false ones), "" false; a JSON
 * number arrives as its text (json.Number), so only 0 and 1 are booleans.
 */
const TRUE_TEXT: ReadonlySet<string> = new Set(['1', 't', 'T', 'TRUE', 'true', 'True']);
const FALSE_TEXT: ReadonlySet<string> = new Set(['0', 'f', 'F', 'FALSE', 'false', 'False']);

export function readBool(input: unknown): Read<boolean> {
  if (typeof input === 'boolean') return value(input);
  const text = numberLiteral(input) ?? input;
  if (typeof text !== 'string') return refused('expected a boolean');
  if (TRUE_TEXT.has(text)) return value(true);
  if (FALSE_TEXT.has(text) || text === '') return value(false);
  return refused(`cannot parse '' as bool: strconv.ParseBool: parsing "${text}": invalid syntax`);
}

/** The boolean, or undefined when the service refuses the value. */
export function boolOf(input: unknown): boolean | undefined {
  const read = readBool(input);
  return read.kind === 'value' ? read.value : undefined;
}
