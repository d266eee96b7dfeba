import type { JsonObject, JsonValue } from '../../core/json.js';
import { assertNever } from '../../core/plan.js';
import { comparedFieldsOf, type KeyFieldSpec } from './fields.js';
import type { KeyType } from './types.js';
import { normaliseUsages, parseBoolText, parseCurve, parseDecimal, parseMechanism, parseUpper, parseWhole } from './values.js';

/**
 * One value in comparable form. Accepts manifest forms and the server's read forms alike; a
 * value that fits no form is kept as it is (as JSON), so a surprising live value shows up in a
 * diff instead of vanishing.
 */
export function normaliseValue(spec: KeyFieldSpec, value: unknown): JsonValue {
  switch (spec.form) {
    case 'bool':
      return parseBoolText(value) ?? asJson(value);
    case 'usages':
      return normaliseUsages(value) ?? asJson(value);
    case 'text':
      return typeof value === 'number' ? String(value) : asJson(value);
    case 'upper':
      return parseUpper(value) ?? asJson(value);
    case 'curve':
      return parseCurve(value) ?? asJson(value);
    case 'mechanism':
      return parseMechanism(value) ?? asJson(value);
    case 'decimal':
      return parseDecimal(value) ?? asJson(value);
    case 'int':
      return parseWhole(value) ?? asJson(value);
    default:
      return assertNever(spec.form);
  }
}

function asJson(value: unknown): JsonValue {
  if (value === undefined) return null;
  return JSON.parse(JSON.stringify(value)) as JsonValue;
}

/** Absent, null, empty text or an empty list: the field takes its default. */
export function isUnset(value: unknown): boolean {
  return value === undefined || value === null || value === '' || (Array.isArray(value) && value.length === 0);
}

/**
 * The comparable attrs of a key of `type` (manifest config or live answer): every field of the
 * type but the secrets, defaults filled in, all in comparable form. Other fields (a live
 * answer's `name`, `type`, `UUID`, or the secrets' "redacted") are ignored.
 */
export function keyAttrs(type: KeyType, values: Readonly<Record<string, unknown>>): JsonObject {
  const attrs: JsonObject = {};
  for (const spec of comparedFieldsOf(type)) {
    const value = values[spec.name];
    attrs[spec.name] = isUnset(value) ? (spec.default ?? '') : normaliseValue(spec, value);
  }
  return attrs;
}
