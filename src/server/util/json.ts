import { JsonNumber } from '../../values/index.js';

/**
 * JSON values as the server stores and sends them (kept local: src/server imports nothing from
 * the reconciler). A request body's numbers are JsonNumbers (their literal text, as the
 * service's decoder keeps them); JSON.stringify writes one as its number.
 */
export type JsonValue = string | number | JsonNumber | boolean | null | JsonValue[] | { [key: string]: JsonValue };
export type JsonObject = { [key: string]: JsonValue };

export function isJsonObject(value: unknown): value is JsonObject {
  return value !== null && typeof value === 'object' && !Array.isArray(value) && !(value instanceof JsonNumber);
}

/** The value with each JsonNumber as the JavaScript number it stands for (what JSON.stringify writes for it). */
export function plainJson(value: JsonValue): JsonValue {
  if (value instanceof JsonNumber) return value.toJSON();
  if (Array.isArray(value)) return value.map(plainJson);
  if (value !== null && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, plainJson(v)]));
  return value;
}
