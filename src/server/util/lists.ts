/** List handling shared by the API's list-valued fields. */

/** A list given as a JSON array or a comma-separated string; items trimmed, empty ones dropped. */
export function parseCommaList(input: unknown): string[] {
  if (input === null || input === undefined) return [];
  const items = Array.isArray(input) ? input : typeof input === 'string' ? input.split(',') : [input];
  const out: string[] = [];
  for (const item of items) {
    if (item !== null && typeof item === 'object') throw new TypeError('list items must be strings');
    const text = String(item).trim();
    if (text !== '') out.push(text);
  }
  return out;
}

/** Trimmed, optionally lower-cased, de-duplicated, sorted (the service's RemoveDuplicates). */
export function sortedUnique(items: readonly string[], lowerCase: boolean): string[] {
  const set = new Set<string>();
  for (const item of items) {
    const text = lowerCase ? item.trim().toLowerCase() : item.trim();
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
 * (parseutil.ParseCommaStringSlice): "" is no items; a string is split at commas; every item
 * is trimmed, and nothing else is done (case, order, duplicates and empty items are kept).
 */
export function trimmedList(input: unknown): string[] {
  if (input === null || input === undefined || input === '') return [];
  const items = Array.isArray(input) ? input : typeof input === 'string' ? input.split(',') : [input];
  return items.map((item) => {
    if (item !== null && typeof item === 'object') throw new TypeError('list items must be strings');
    return String(item).trim();
  });
}

/** Byte-wise order, as Go's sort.Strings (equal to code-unit order outside surrogate pairs). */
export function compareBytes(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
