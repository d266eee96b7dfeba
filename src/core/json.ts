type JsonPrimitive = string | number | boolean | null;
export type JsonValue = JsonPrimitive | JsonValue[] | { [key: string]: JsonValue };
export type JsonObject = { [key: string]: JsonValue };

/** A JSON object: not null, not a list. */
export function isJsonObject(value: unknown): value is JsonObject {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

/**
 * A value read from JSON as text for a message: a string as it is, anything else as compact
 * JSON (never "[object Object]" for an object the server answered where text was expected).
 */
export function jsonText(value: unknown): string {
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  return JSON.stringify(value) ?? typeof value;
}

/** Canonical JSON: object keys sorted, so equal values give equal text (fingerprints, compare). */
export function canonicalJson(value: unknown): string {
  return JSON.stringify(sortKeys(value));
}

function sortKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sortKeys);
  if (value !== null && typeof value === 'object' && !(value as { toJSON?: unknown }).toJSON) {
    const o = value as Record<string, unknown>;
    return Object.fromEntries(Object.keys(o).sort().map((k) => [k, sortKeys(o[k])]));
  }
  return value;
}

/**
 * True when `a` and `b` give the same canonical JSON (key order aside), compared in place rather
 * than by serialising both: plans compare every field of every object.
 */
export function jsonEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (!isPlainJsonContainer(a) || !isPlainJsonContainer(b)) return canonicalJson(a) === canonicalJson(b);
  if (Array.isArray(a)) {
    if (!Array.isArray(b) || a.length !== b.length) return false;
    for (let i = 0; i < a.length; i++) if (!jsonEqual(inArray(a[i]), inArray(b[i]))) return false;
    return true;
  }
  if (Array.isArray(b)) return false;
  const x = a as Record<string, unknown>;
  const y = b as Record<string, unknown>;
  const keys = Object.keys(x).filter((k) => isSerialised(x[k]));
  if (keys.length !== Object.keys(y).filter((k) => isSerialised(y[k])).length) return false;
  for (const k of keys) if (!Object.prototype.hasOwnProperty.call(y, k) || !jsonEqual(x[k], y[k])) return false;
  return true;
}

/** An array or object that JSON.stringify walks into (not one that serialises itself). */
function isPlainJsonContainer(v: unknown): boolean {
  return v !== null && typeof v === 'object' && typeof (v as { toJSON?: unknown }).toJSON !== 'function';
}

/** Whether JSON.stringify keeps an object member (it drops undefined, functions, symbols). */
function isSerialised(v: unknown): boolean {
  return v !== undefined && typeof v !== 'function' && typeof v !== 'symbol';
}

/** What an array item serialises as: null for what JSON.stringify cannot write. */
function inArray(v: unknown): unknown {
  return isSerialised(v) ? v : null;
}

/** A deep copy of a JSON value (plain objects, arrays, primitives): cheaper than structuredClone. */
export function copyJson<T extends JsonValue>(value: T): T {
  if (Array.isArray(value)) return value.map((v) => copyJson(v)) as T;
  if (value !== null && typeof value === 'object') {
    const out: JsonObject = {};
    for (const k of Object.keys(value)) out[k] = copyJson(value[k]!);
    return out as T;
  }
  return value;
}
