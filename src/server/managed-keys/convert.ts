/** One field of a managed-key write, converted to what is stored (see fields.ts). */
import { FieldError, toBool, toInt, toList } from '../util/fields.js';
import type { JsonValue } from '../util/json.js';
import { JsonNumber } from '../../values/index.js';
import { sortedUnique } from '../util/lists.js';
import { USAGES } from '../../adapters/kms/policy.js';
import type { FieldSpec } from './fields.js';

export type Converted =
  /** The value to store. */
  | { ok: true; value: JsonValue }
  /** null or "" given: the field is unset (its default applies). */
  | { ok: true; value: undefined }
  | { ok: false; error: string };

export function convertField(field: string, spec: FieldSpec, raw: JsonValue): Converted {
  if (raw === null || raw === '') return { ok: true, value: undefined };
  try {
    switch (spec.kind) {
      case 'string':
      case 'hexNumber':
      case 'decimalNumber':
        if (typeof raw === 'string' || typeof raw === 'number' || raw instanceof JsonNumber || typeof raw === 'boolean') return { ok: true, value: String(raw) };
        return { ok: false, error: `${field} must be a string` };
      case 'secret':
        // Never echoed: the message names the field only.
        return typeof raw === 'string' ? { ok: true, value: raw } : { ok: false, error: `${field} must be a string` };
      case 'bool':
        return { ok: true, value: toBool(field, raw) };
      case 'int':
        return { ok: true, value: toInt(field, raw) };
      case 'usages':
        return convertUsages(field, raw);
    }
  } catch (err) {
    if (err instanceof FieldError) return { ok: false, error: err.message };
    throw err;
  }
}

function convertUsages(field: string, raw: JsonValue): Converted {
  const usages = sortedUnique(toList(field, raw), true);
  const unknown = usages.filter((u) => !(USAGES as readonly string[]).includes(u));
  if (unknown.length > 0) {
    return { ok: false, error: `usages: ${unknown.map((u) => JSON.stringify(u)).join(', ')} not allowed; allowed values: ${USAGES.join(', ')}` };
  }
  return { ok: true, value: usages.length === 0 ? undefined : usages };
}
