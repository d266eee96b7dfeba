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

/** Policy lists are always trimmed, lower-cased, de-duplicated and sorted. */
export function normalisePolicies(items: readonly string[]): string[] {
  return sortedUnique(items, true);
}

/** Byte-wise order, as Go's sort.Strings (equal to code-unit order outside surrogate pairs). */
export function compareBytes(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
