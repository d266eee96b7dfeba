import type { JsonObject } from '../util/json.js';
import { fieldsOf } from './fields.js';
import type { StoredManagedKey } from './key-store.js';

/** What secret fields read back as when set (they are absent when not set). */
const REDACTED = 'redacted';

/**
 * The read answer: `name`, `type`, `UUID`, then every field of the type (members in sorted
 * order, as the service's maps come out): unset fields with their default ("" for strings
 * without one), secret fields as "redacted" when set and absent otherwise.
 */
export function managedKeyView(key: StoredManagedKey): JsonObject {
  const view: JsonObject = { name: key.name, type: key.type, UUID: key.uuid };
  for (const [field, spec] of Object.entries(fieldsOf(key.type))) {
    const value = key.config[field];
    switch (spec.kind) {
      case 'secret':
        if (value !== undefined) view[field] = REDACTED;
        break;
      case 'string':
        view[field] = value ?? spec.default ?? '';
        break;
      case 'bool':
      case 'int':
      case 'usages':
        view[field] = value ?? spec.default;
        break;
      case 'hexNumber':
      case 'decimalNumber':
        view[field] = typeof value === 'string' ? asNumber(value, spec.kind === 'hexNumber' ? 16 : 10) : '';
        break;
    }
  }
  return Object.fromEntries(Object.entries(view).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
}

/** `0x1041` → 4161, `"7"` → 7; text that is not such a number (or too large for JSON) stays text. */
function asNumber(text: string, radix: 16 | 10): number | string {
  const digits = radix === 16 ? /^0[xX]([0-9a-fA-F]+)$/.exec(text.trim())?.[1] : /^\d+$/.exec(text.trim())?.[0];
  if (digits === undefined) return text;
  const n = Number.parseInt(digits, radix);
  return Number.isSafeInteger(n) ? n : text;
}
