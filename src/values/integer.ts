import { numberLiteral, refused, value, type Read } from './read.js';

/**
 * Integers as the service reads an int field (sdk/framework/field_data.go TypeInt:
 * mapstructure.WeakDecode → strconv.ParseInt(text, 0, 64)): a JSON number arrives as its text;
 * "" is 0; Go integer literals with an optional sign: decimal, 0x hex, 0o / 0 octal, 0b binary,
 * underscores between digits. `1.5`, `1e3` and spaces are refused; booleans are 1 and 0.
 */
const GO_INT_LITERAL: ReadonlyArray<[RegExp, number]> = [
  [/^0[xX]((?:_?[0-9a-fA-F])+)$/, 16],
  [/^0[bB]((?:_?[01])+)$/, 2],
  [/^0[oO]((?:_?[0-7])+)$/, 8],
  [/^0((?:_?[0-7])+)$/, 8],
  [/^([1-9](?:_?[0-9])*|0)$/, 10],
];
const MAX_INT64 = (1n << 63n) - 1n;

export function readInteger(input: unknown): Read<number> {
  if (typeof input === 'boolean') return value(input ? 1 : 0);
  const text = numberLiteral(input) ?? input;
  if (typeof text !== 'string') return refused('expected an integer');
  if (text === '') return value(0);
  const sign = text[0] === '-' ? -1n : 1n;
  const body = text[0] === '-' || text[0] === '+' ? text.slice(1) : text;
  for (const [pattern, radix] of GO_INT_LITERAL) {
    const m = pattern.exec(body);
    if (!m) continue;
    const digits = m[1]!.replaceAll('_', '');
    const n = sign * [...digits].reduce((acc, d) => acc * BigInt(radix) + BigInt(Number.parseInt(d, radix)), 0n);
    if (n > MAX_INT64 || n < -MAX_INT64 - 1n) return refused(`cannot parse '' as int: strconv.ParseInt: parsing "${text}": value out of range`);
    // Beyond 2^53 a JavaScript number cannot hold it exactly: refused rather than rounded.
    if (n > BigInt(Number.MAX_SAFE_INTEGER) || n < -BigInt(Number.MAX_SAFE_INTEGER)) return refused(`"${text}" is too large`);
    return value(Number(n));
  }
  return refused(`cannot parse '' as int: strconv.ParseInt: parsing "${text}": invalid syntax`);
}

/** A count: an integer ≥ 0 as the service reads it; undefined otherwise. */
/** The whole number, negative ones too, or undefined when the service refuses the value. */
export function integerOf(input: unknown): number | undefined {
  const read = readInteger(input);
  return read.kind === 'value' ? read.value : undefined;
}

export function countOf(input: unknown): number | undefined {
  const read = readInteger(input);
  return read.kind === 'value' && read.value >= 0 ? read.value : undefined;
}
