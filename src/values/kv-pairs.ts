import { compareBytes } from './list.js';
import { JsonNumber, numberLiteral, refused, value, type Read } from './read.js';

/**
 * A map of text as the service reads a TypeKVPairs field (sdk/framework/field_data.go): an
 * object first, its scalar values weakly decoded to text (mapstructure.WeakDecode); otherwise
 * a list of `key=value` items, each split at its first `=` (a lone string is one item: it is
 * never split at commas), a missing `=` or an empty key refused. Keys come back sorted.
 */
export function readKvPairs(input: unknown): Read<Record<string, string>> {
  if (input === null || input === undefined) return value({});
  if (typeof input === 'object' && !Array.isArray(input) && !(input instanceof JsonNumber)) {
    const pairs: Array<[string, string]> = [];
    for (const [k, v] of Object.entries(input)) {
      const text = scalarText(v);
      if (text === undefined) return refused(`'${k}' expected a string value`);
      pairs.push([k, text]);
    }
    return value(sorted(pairs));
  }
  const items = Array.isArray(input) ? input.map(scalarText) : [scalarText(input)];
  const pairs: Array<[string, string]> = [];
  for (const item of items) {
    if (item === undefined) return refused('expected a map or a list of key=value items');
    const eq = item.indexOf('=');
    if (eq <= 0) return refused(`invalid key pair ${JSON.stringify(item)}`);
    pairs.push([item.slice(0, eq), item.slice(eq + 1)]);
  }
  return value(sorted(pairs));
}

function scalarText(v: unknown): string | undefined {
  if (typeof v === 'string') return v;
  const number = numberLiteral(v);
  if (number !== undefined) return number;
  if (typeof v === 'boolean') return v ? '1' : '0';
  return undefined;
}

function sorted(pairs: Array<[string, string]>): Record<string, string> {
  return Object.fromEntries(pairs.sort(([a], [b]) => compareBytes(a, b)));
}
