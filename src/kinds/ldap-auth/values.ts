/**
 * The LDAP kind's list normalisations, on the shared value forms (src/values/): how the service
 * stores each list field once its framework has read it. Durations, booleans and counts are
 * read by src/values/ directly.
 */
import { cidrText, commaListOf, compareBytes, goToLower, goTrimSpace, readCidr } from '../../values/index.js';

/**
 * The items of a list field as the service receives them from lockstep: a list is sent
 * comma-joined (write.ts), so `["a,b"]` arrives as two items; a text as written. Trimmed
 * (TypeCommaStringSlice); undefined for anything the service refuses.
 */
export function listItems(value: unknown): string[] | undefined {
  if (!Array.isArray(value)) return commaListOf(value);
  const texts: string[] = [];
  let comma = false;
  for (const item of value) {
    if (item !== null && typeof item === 'object') return undefined;
    const text = item === null ? '' : String(item);
    comma ||= text.includes(',');
    texts.push(text);
  }
  // Joined and split again only where that changes something: an item holding a comma, or a
  // single item (a lone "" is no items). Otherwise the split gives back the same items.
  if (comma) return commaListOf(texts.join(','));
  // A single item without a comma (most users' and groups' lists): what the split would give.
  if (texts.length === 1) return texts[0] === '' ? [] : [goTrimSpace(texts[0]!)];
  return texts.map(goTrimSpace);
}

/** Sorted in code-unit order, as the server sorts (Go's sort.Strings), without repeats. */
function sortedUnique(items: readonly string[]): string[] {
  // Arrays of their exact length (a spread): these are kept for every object of the run, and an
  // array grown by push (filter's) holds a dozen spare slots.
  if (items.length < 2) return items.slice();
  const sorted = [...items].sort(compareBytes);
  return sorted.some((item, i) => i > 0 && item === sorted[i - 1]) ? [...new Set(sorted)] : sorted;
}

/**
 * Group and user policy names as the server stores them (policyutil.ParsePolicies): trimmed,
 * lower-cased, empty ones dropped, unique, sorted; a list naming `root` is stored as just
 * `["root"]`, so it is compared so.
 */
export function normalisePolicies(list: unknown): string[] {
  const out: string[] = [];
  for (const item of listItems(list) ?? []) {
    const stored = goToLower(item);
    if (stored !== '') out.push(stored);
  }
  return out.includes('root') ? ['root'] : sortedUnique(out);
}

/**
 * `token_policies` as the server stores it (tokenutil ParseTokenFields): each item trimmed and
 * nothing else: case, order and duplicates are kept. "" is no items.
 */
export function normaliseTokenPolicies(list: unknown): string[] {
  if (list === '' || list === null || list === undefined) return [];
  return listItems(list) ?? [];
}

/** A user's group names as stored: trimmed, unique, sorted, lower-cased unless case sensitive. */
export function normaliseGroupList(value: unknown, caseSensitive: boolean): string[] {
  const out: string[] = [];
  for (const item of listItems(value) ?? []) if (item !== '') out.push(caseSensitive ? item : goToLower(item));
  return sortedUnique(out);
}

/** CIDR blocks as the server reads them back (cidrText): trimmed, empty ones dropped, order kept (the server keeps the given order). */
export function normaliseCidrs(value: unknown): string[] {
  return (listItems(value) ?? []).filter((c) => c !== '').map((c) => {
    const cidr = readCidr(c);
    return cidr.kind === 'value' ? cidrText(cidr.value) : c;
  });
}

/** A user or group name as the server keys it (lower-cased as Go does: values/lower.ts). */
export function canonicalName(name: string, caseSensitive: boolean): string {
  return caseSensitive ? name : goToLower(name);
}
