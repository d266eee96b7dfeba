import { goTrimSpace, JsonNumber, numberLiteral, readBool, readCommaList, readDuration, readInteger, type Read } from '../../values/index.js';

/**
 * Conversions of request fields through the shared value forms (src/values/), which read them
 * as the service's request framework does. A value that does not convert is a 400 with the
 * framework's wording (hashicorp/vault sdk/framework/field_data.go Validate: `error converting
 * input %v for field %q: ...`), built by the caller from FieldError. Values that are not scalars
 * are refused in github.com/mitchellh/mapstructure's words, which that framework decodes with.
 */
export class FieldError extends Error {
  /** What FieldData.Validate returns, unwrapped: the existence check answers it as is (HandleExistenceCheck). */
  readonly conversion: string;

  constructor(field: string, value: unknown, reason: string) {
    const conversion = `error converting input ${goValueText(value)} for field "${field}": ${reason}`;
    // sdk/framework/backend.go HandleRequest wraps what FieldData.Validate returns.
    super(`Field validation failed: ${conversion}`);
    this.conversion = conversion;
  }
}

/**
 * A decoded JSON value as Go's fmt `%v` prints it: text as is, numbers as their text
 * (json.Number), null as `<nil>`, arrays `[a b]`, objects `map[k:v]` with the keys sorted.
 */
function goValueText(value: unknown): string {
  if (value === null || value === undefined) return '<nil>';
  if (typeof value === 'string') return value;
  const number = numberLiteral(value);
  if (number !== undefined) return number;
  if (typeof value === 'boolean') return String(value);
  if (Array.isArray(value)) return `[${value.map(goValueText).join(' ')}]`;
  const entries = Object.entries(value as Record<string, unknown>).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return `map[${entries.map(([k, v]) => `${k}:${goValueText(v)}`).join(' ')}]`;
}

/** The Go type a decoded JSON value has (encoding/json into interface{}). */
function goTypeName(value: unknown): string {
  if (Array.isArray(value)) return '[]interface {}';
  if (numberLiteral(value) !== undefined) return 'json.Number';
  if (value !== null && typeof value === 'object') return 'map[string]interface {}';
  if (typeof value === 'boolean') return 'bool';
  return 'string';
}

function isComposite(value: unknown): value is object {
  return value !== null && typeof value === 'object' && !(value instanceof JsonNumber);
}

/** mapstructure's refusal of a value it cannot weakly convert to a scalar of Go type `to`, at `name`. */
function unconvertible(name: string, to: string, value: unknown): string {
  return `'${name}' expected type '${to}', got unconvertible type '${goTypeName(value)}', value: '${goValueText(value)}'`;
}

function taken<T>(field: string, input: unknown, read: Read<T>, goType: string): T {
  if (isComposite(input)) throw new FieldError(field, input, unconvertible('', goType, input));
  if (read.kind === 'refused') throw new FieldError(field, input, read.reason);
  return read.value;
}

export function toBool(field: string, value: unknown): boolean {
  return taken(field, value, readBool(value), 'bool');
}

export function toStr(field: string, value: unknown): string {
  if (typeof value === 'string') return value;
  const number = numberLiteral(value);
  if (number !== undefined) return number;
  // mapstructure's weak decoding: booleans are "1" and "0".
  if (typeof value === 'boolean') return value ? '1' : '0';
  if (value === null || value === undefined) return '';
  throw new FieldError(field, value, unconvertible('', 'string', value));
}

export function toInt(field: string, value: unknown): number {
  return taken(field, value, readInteger(value), 'int');
}

export function toDurationSeconds(field: string, value: unknown): number {
  // parseutil.ParseDurationSecond refuses what is not text or a number in its own words.
  const read = readDuration(value);
  if (read.kind === 'refused') throw new FieldError(field, value, read.reason);
  return read.value.seconds;
}

/** A comma-string-slice field with its empty items dropped (what every list field here keeps); absent is no items. */
export function toList(field: string, value: unknown): string[] {
  if (value === undefined) return [];
  return toCommaList(field, value).filter((item) => item !== '');
}

/**
 * A TypeCommaStringSlice field as parseutil.ParseCommaStringSlice reads it. What is neither
 * text nor a list of scalars is refused as mapstructure's decodeSlice does: an object that is
 * not empty is lifted into a one-element list, and every element that is not a scalar fails.
 */
function toCommaList(field: string, value: unknown): string[] {
  const elements = Array.isArray(value) ? value : isComposite(value) ? (Object.keys(value).length === 0 ? [] : [value]) : undefined;
  if (elements !== undefined) {
    const failures = elements.flatMap((element, i) => (isComposite(element) ? [`* ${unconvertible(`[${i}]`, 'string', element)}`] : []));
    if (failures.length > 0) throw new FieldError(field, value, decodingErrors(failures));
    if (!Array.isArray(value)) return [];
  }
  const read = readCommaList(value);
  if (read.kind === 'refused') throw new FieldError(field, value, read.reason);
  return read.value;
}

/** mapstructure's Error: its points sorted, counted. */
function decodingErrors(points: string[]): string {
  return `${points.length} error(s) decoding:\n\n${[...points].sort().join('\n')}`;
}

/**
 * TypeStringSlice (field_data.go): "" is none; anything else is mapstructure.WeakDecode into
 * []string, which lifts a single value into a one-item list (a comma text stays one item), then
 * every item trimmed.
 */
export function toStringSlice(field: string, raw: unknown): string[] {
  if (raw === '' || raw === null) return [];
  // decodeSlice: an empty object is an empty list; any other single value is lifted into one.
  const items = Array.isArray(raw) ? raw : isComposite(raw) && Object.keys(raw).length === 0 ? [] : [raw];
  const points = items.flatMap((item, i) => (isComposite(item) ? [`* ${unconvertible(`[${i}]`, 'string', item)}`] : []));
  if (points.length > 0) throw new FieldError(field, raw, decodingErrors(points));
  return items.map((item) => goTrimSpace(toStr(field, item)));
}

/**
 * TypeKVPairs (field_data.go): an object of scalars is the map; otherwise a list of `k=v`
 * texts (a single text is lifted into one), each split at its first `=`.
 */
export function toKvPairs(field: string, raw: unknown): Record<string, string> {
  if (isComposite(raw) && !Array.isArray(raw)) {
    const entries = Object.entries(raw);
    if (entries.every(([, v]) => !isComposite(v))) {
      return Object.fromEntries(entries.map(([k, v]) => [k, weakString(field, raw, v, '')]));
    }
  }
  const result: Record<string, string> = {};
  for (const pair of toStringSlice(field, raw)) {
    const at = pair.indexOf('=');
    if (at <= 0) throw new FieldError(field, raw, `invalid key pair ${JSON.stringify(pair)}`);
    result[pair.slice(0, at)] = pair.slice(at + 1);
  }
  return result;
}

/** mapstructure's weak decoding of one element into a string. */
function weakString(field: string, whole: unknown, element: unknown, name: string): string {
  if (isComposite(element)) throw new FieldError(field, whole, decodingErrors([`* ${unconvertible(name, 'string', element)}`]));
  return toStr(field, element);
}
