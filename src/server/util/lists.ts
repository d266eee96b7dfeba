/** List handling shared by the API's list-valued fields. */
import { compareBytes, readCommaList } from '../../values/index.js';
import { goToLower } from '../../values/index.js';

export { compareBytes };

/** Trimmed, optionally lower-cased, de-duplicated, sorted (the service's RemoveDuplicates). */
export function sortedUnique(items: readonly string[], lowerCase: boolean): string[] {
  const set = new Set<string>();
  for (const item of items) {
    const text = lowerCase ? goToLower(item.trim()) : item.trim();
    if (text !== '') set.add(text);
  }
  return [...set].sort(compareBytes);
}

/**
 * A policy list as the service stores it for groups and users (policyutil.ParsePolicies):
 * trimmed, lower-cased, de-duplicated and sorted; a list naming `root` is just `["root"]`.
 */
export function normalisePolicies(items: readonly string[]): string[] {
  const sanitised = sortedUnique(items, true);
  return sanitised.includes('root') ? ['root'] : sanitised;
}

/**
 * A comma-string-slice field as the service's request framework reads it
 * (parseutil.ParseCommaStringSlice): empty items, case, order and duplicates kept.
 */
export function trimmedList(input: unknown): string[] {
  if (input === undefined) return [];
  const read = readCommaList(input);
  if (read.kind === 'refused') throw new TypeError(read.reason);
  return read.value;
}
