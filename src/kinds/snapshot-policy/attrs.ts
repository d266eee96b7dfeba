import type { JsonObject, JsonValue } from '../../core/json.js';
import { assertNever } from '../../core/plan.js';
import { comparedFieldsOf, isStorageType, SNAPSHOT_FIELD_SPECS, type SnapshotFieldSpec } from './fields.js';
import { boolOf, countOf, durationSeconds, parseBytes } from '../../values/index.js';

/**
 * One value in the server's read form. Accepts manifest forms (`1h`, `10GiB`, `"true"`) and
 * live forms alike; a value that fits no form is kept as it is, so a surprising live value
 * shows up in a diff instead of vanishing.
 */
export function normaliseValue(spec: SnapshotFieldSpec, value: unknown): JsonValue {
  switch (spec.form) {
    case 'duration':
      return durationSeconds(value) ?? asJson(value);
    case 'count':
      return countOf(value) ?? asJson(value);
    case 'bytes':
      return parseBytes(value) ?? asJson(value);
    case 'bool':
      return boolOf(value) ?? asJson(value);
    case 'string':
      return asJson(value);
    default:
      return assertNever(spec.form);
  }
}

function asJson(value: unknown): JsonValue {
  if (value === undefined) return null;
  return JSON.parse(JSON.stringify(value)) as JsonValue;
}

/** Absent, null, or an empty text where the field has a non-empty default: the server uses the default. */
function isUnset(spec: SnapshotFieldSpec, value: unknown): boolean {
  return value === undefined || value === null || (value === '' && spec.default !== undefined && spec.default !== '');
}

/**
 * The comparable attrs of a configuration (manifest or live): the common fields and every
 * field of its storage type but the credentials, defaults filled in, all in read form. Fields
 * of other storage types are ignored (a server may keep them after a storage_type change).
 * An unknown storage_type gives the common fields only.
 */
export function snapshotAttrs(values: Readonly<Record<string, unknown>>): JsonObject {
  const type = values['storage_type'];
  const specs = isStorageType(type) ? comparedFieldsOf(type) : SNAPSHOT_FIELD_SPECS.filter((f) => f.variant === 'common');
  const attrs: JsonObject = {};
  for (const spec of specs) {
    const value = values[spec.name];
    attrs[spec.name] = isUnset(spec, value) ? (spec.default ?? null) : normaliseValue(spec, value);
  }
  return attrs;
}
