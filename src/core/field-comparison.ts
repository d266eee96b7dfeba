import { jsonEqual, type JsonValue } from './json.js';
import { assertNever } from './plan.js';

/**
 * How a field is compared when plain equality would show drift the service does not have:
 * - `policySet`: a policy list the service stores as given but applies as a set
 *   (token_policies: kept trimmed, in its case and order with duplicates, yet every token
 *   gets them lower-cased, de-duplicated and sorted). Two lists with the same set are equal.
 */
export type FieldComparison = 'policySet';

export function sameFieldValue(rule: FieldComparison | undefined, want: JsonValue | undefined, have: JsonValue | undefined): boolean {
  if (rule === undefined) return jsonEqual(want, have);
  switch (rule) {
    case 'policySet':
      return jsonEqual(policySet(want), policySet(have));
    default:
      return assertNever(rule);
  }
}

/** The policies a token gets from a list: trimmed, lower-cased, empty ones dropped, unique, sorted. */
function policySet(value: JsonValue | undefined): JsonValue | undefined {
  if (!Array.isArray(value) || !value.every((v) => typeof v === 'string')) return value;
  const set = new Set(value.map((p) => p.trim().toLowerCase()).filter((p) => p !== ''));
  return [...set].sort();
}
