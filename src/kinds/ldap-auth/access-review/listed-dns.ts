/**
 * The user's DN, taken from the review's own listing of the users instead of one more search
 * per user, where that is exactly what the login's search (GetUserBindDN) would find. The
 * listing is the login's search with the name made a wildcard: same base, scope (sub) and
 * dereferencing, and a userfilter whose only use of the name is `(<userattr>=<name>)` under
 * nothing but ANDs. Then the entries the login finds for a name are the listed entries holding
 * a userattr value equal to the name under the attribute's matching rule. We do not know that
 * rule, so we group values by a key coarser than any string matching rule (case, compatibility
 * forms, accents, spaces and punctuation ignored): a name whose group holds one entry is found
 * as exactly that entry; any other name is searched for as the login does.
 */
import { AndFilter, EqualityFilter, FilterParser, type Filter } from 'ldapts';
import { renderFilterTemplate, searchesForUser, userFilterValues, DEFAULT_USER_FILTER, type LdapEntry, type LoginDirectorySettings } from '../../../adapters/ldap/index.js';

/** Whether the listing is the login's own user search with the name as a wildcard. */
export function listingIsLoginSearch(s: LoginDirectorySettings): boolean {
  if (!searchesForUser(s) || s.upndomain !== '') return false;
  // Dereferencing can find one entry twice, or under another name: the login's search decides.
  if ((s.dereference_aliases || 'never') !== 'never') return false;
  const marker = 'lockstepaccessreviewname';
  let filter: Filter;
  try {
    filter = FilterParser.parseString(renderFilterTemplate(s.userfilter || DEFAULT_USER_FILTER, userFilterValues(s, marker)));
  } catch {
    return false;
  }
  const uses = namePlaces(filter, marker, true);
  return uses.length === 1 && uses[0] === 'equality-under-ands' && isUserAttrEquality(filter, s.userattr, marker);
}

type NamePlace = 'equality-under-ands' | 'elsewhere';

/** Where the name occurs in the filter: as a whole equality value reached through ANDs only, or anywhere else. */
function namePlaces(f: Filter, marker: string, underAnds: boolean): NamePlace[] {
  if (f instanceof AndFilter) return f.filters.flatMap((c) => namePlaces(c, marker, underAnds));
  if (f instanceof EqualityFilter) {
    const value = typeof f.value === 'string' ? f.value : f.value.toString('utf8');
    if (value === marker && underAnds) return ['equality-under-ands'];
  }
  const children = 'filters' in f && Array.isArray(f.filters) ? (f.filters as Filter[]) : 'filter' in f && f.filter ? [f.filter as Filter] : [];
  if (children.length > 0) return children.flatMap((c) => namePlaces(c, marker, false));
  return f.toString().toLowerCase().includes(marker) ? ['elsewhere'] : [];
}

/** The one equality on the name asserts the userattr itself (not another attribute). */
function isUserAttrEquality(f: Filter, userattr: string, marker: string): boolean {
  if (f instanceof AndFilter) return f.filters.some((c) => isUserAttrEquality(c, userattr, marker));
  return f instanceof EqualityFilter && f.value === marker && f.attribute.toLowerCase() === userattr.toLowerCase();
}

/**
 * Login name → DN for the names the listing decides (their key's group holds one entry);
 * undefined when the listing cannot decide any name (an entry shows no userattr value: it
 * matched the listing by a value it does not show, so it could be any name's).
 */
export function dnsFromListing(entries: readonly LdapEntry[], userattr: string): Map<string, string> | undefined {
  // The one entry holding a key, or null once a second one does: no set per key.
  const byKey = new Map<string, LdapEntry | null>();
  // Each value and its key, side by side: no object per value.
  const values: string[] = [];
  const keys: string[] = [];
  const wanted = [userattr.toLowerCase()];
  for (const entry of entries) {
    // The attribute's values, its subtypes' (`cn;lang-de`) included: an equality on `cn` matches those too.
    const found = valuesWithSubtypes(entry, wanted);
    if (found.length === 0) return undefined;
    for (const value of found) {
      const key = matchKey(value);
      const holder = byKey.get(key);
      if (holder === undefined) byKey.set(key, entry);
      else if (holder !== entry) byKey.set(key, null);
      values.push(value);
      keys.push(key);
    }
  }
  const out = new Map<string, string>();
  for (let i = 0; i < values.length; i++) {
    const holder = byKey.get(keys[i]!);
    if (holder) out.set(values[i]!, holder.dn);
  }
  return out;
}

/**
 * The values of the attributes `wanted` (lower-cased) and their subtypes, in the entry's order.
 * Called for each entry of a listing: one attribute's list is given as it is (read-only), and
 * the keys are walked without Object.entries' pair arrays.
 */
export function valuesWithSubtypes(entry: LdapEntry, wanted: readonly string[]): readonly string[] {
  let found: readonly string[] | undefined;
  let joined: string[] | undefined;
  for (const name in entry.attributes) {
    const lower = name.toLowerCase();
    if (!wanted.some((w) => lower === w || (lower.length > w.length && lower.startsWith(w) && lower[w.length] === ';'))) continue;
    const values = entry.attributes[name]!;
    if (found === undefined) found = values;
    else (joined ??= [...found]).push(...values);
  }
  return joined ?? found ?? [];
}

/**
 * Equal for any two values a string matching rule may call equal (RFC 4518's preparation:
 * case folding, ß as ss, compatibility forms, insignificant spaces; telephone numbers' hyphens):
 * compatibility-decomposed, case-folded both ways, keeping letters and digits without marks.
 */
export function matchKey(value: string): string {
  // Lower-case letters and digits only (most names and RDN values): the key is the value itself.
  if (LOWER_ALNUM.test(value)) return value;
  // ASCII has no compatibility forms nor marks, and folds as toLowerCase does: the same key, faster.
  if (ASCII.test(value)) return value.toLowerCase().replace(NOT_ASCII_ALNUM, '');
  return value.normalize('NFKC').toUpperCase().toLowerCase().normalize('NFKD').replace(/[^\p{L}\p{N}]/gu, '');
}

// eslint-disable-next-line no-control-regex
const ASCII = /^[\u0000-\u007f]*$/;
const NOT_ASCII_ALNUM = /[^a-z0-9]/g;
const LOWER_ALNUM = /^[a-z0-9]*$/;
