/**
 * A listing the directory's size limit stops, in parts it allows, sized from what it answered.
 * A search the limit stops still sends the entries up to the limit: their count is the limit,
 * and their names show how the listing spreads over the names' next characters. The part is
 * split there: the characters that hold about half a search's worth are searched together, a
 * character that alone holds the limit's worth is split at once without being searched, and
 * the last part is the rest (the part without the others), so the parts cover the part
 * whatever the server's matching rule makes of the characters. A part that the limit stops in
 * turn is split by its own entries. Every entry a stopped search showed must be found by one of
 * the parts, else the answers do not add up and the listing fails rather than leave one out.
 */
import { escapeFilter } from 'ldapts';
import { attributeValues, type LdapEntry, type LimitedSearch } from '../../../adapters/ldap/index.js';

/** A part of the listing: its filter, the name prefix its entries share, and the next characters already split off (the rest's). */
export interface ListingPart {
  filter: string;
  prefix: string;
  /** Prefixes one character longer than `prefix` that the filter leaves out. */
  excluded: ReadonlySet<string>;
  /** Entries expected (0: unknown). */
  estimate: number;
}

/**
 * A search of one part. `shownLimit`: the entries the listing's first search showed before the
 * limit stopped it (undefined until then), for the caller to send the parts as that limit allows.
 */
export type PartSearch = (filter: string, shownLimit: number | undefined) => Promise<LimitedSearch>;

/**
 * Every entry of `filter`, deduplicated by DN (an entry with several names can be in several
 * parts), in as many searches as the limit needs: with no limit, one.
 */
export async function listWithinLimit(search: PartSearch, filter: string, attribute: string, what: string): Promise<LdapEntry[]> {
  const found = new Map<string, LdapEntry>();
  // The DNs each stopped search showed, in the order they came, checked once the parts are in
  // (the DNs only: the entries themselves are garbage once split on).
  const stopped: Array<{ filter: string; dns: string[] }> = [];
  let shownLimit: number | undefined;
  const run = async (part: ListingPart): Promise<void> => {
    const answer = await search(part.filter, shownLimit);
    if (answer.complete) {
      for (const e of answer.entries) found.set(e.dn, e);
      return;
    }
    shownLimit ??= answer.entries.length;
    stopped.push({ filter: part.filter, dns: answer.entries.map((e) => e.dn) });
    const parts = splitPart(part, answer.entries, attribute, Math.max(1, answer.entries.length), what);
    await Promise.all(parts.map(run));
  };
  await run({ filter, prefix: '', excluded: new Set(), estimate: 0 });
  // The first stopped search that showed a missing entry is the one named.
  for (const { filter: partFilter, dns } of stopped) {
    for (const dn of dns) {
      if (!found.has(dn)) throw new Error(`the directory's answers for ${what} do not add up: ${dn}, found by ${partFilter}, is in none of its parts`);
    }
  }
  return [...found.values()];
}

/**
 * The parts to search instead of `part`, which the limit stopped after `shown` (`limit` entries).
 * Throws when the entries shown cannot split it (they all hold exactly the prefix, say).
 */
export function splitPart(part: ListingPart, shown: readonly LdapEntry[], attribute: string, limit: number, what: string): ListingPart[] {
  const counts = nextPrefixes(shown, attribute, part.prefix, part.excluded);
  if (counts.size === 0) {
    throw new Error(`the directory's size limit stops the search for ${what}${part.prefix ? ` whose ${attribute} starts with "${part.prefix}"` : ''} even in parts`);
  }
  // What the part holds, were it shown whole: more than the limit; twice what it was expected to hold.
  const total = Math.max(2 * limit, 2 * part.estimate);
  const estimateOf = (n: number) => (total * n) / shown.length;
  const groups = packed([...counts], estimateOf, FILL * limit);
  const startsWith = (p: string) => `(${attribute}=${escapeFilter`${p}`}*)`;
  const anyOf = (prefixes: readonly string[]) => (prefixes.length === 1 ? startsWith(prefixes[0]!) : `(|${prefixes.map(startsWith).join('')})`);
  // The last run is left to the rest, which always is searched; a single run is searched itself.
  const searched = groups.length > 1 ? groups.slice(0, -1) : groups;
  const left = groups.length > 1 ? groups.at(-1)! : [];
  const parts: ListingPart[] = [];
  for (const group of searched) {
    const prefixes = group.map(([p]) => p);
    const n = group.reduce((sum, [, c]) => sum + c, 0);
    const child: ListingPart = {
      filter: `(&${part.filter}${anyOf(prefixes)})`,
      prefix: prefixes.length === 1 ? prefixes[0]! : part.prefix,
      excluded: new Set(),
      estimate: estimateOf(n),
    };
    // Shown the limit's worth on its own: too many for one search, split without asking. The
    // entries under it are looked for only then (a walk of every shown entry per part otherwise).
    const under = prefixes.length === 1 && n >= limit ? shownUnder(shown, attribute, child.prefix) : [];
    if (under.length > 0 && nextPrefixes(under, attribute, child.prefix, child.excluded).size > 0) {
      parts.push(...splitPart(child, under, attribute, limit, what));
    } else {
      parts.push(child);
    }
  }
  const split = searched.flat().map(([p]) => p);
  const restShown = left.reduce((sum, [, c]) => sum + c, 0) + (shown.length - [...counts.values()].reduce((a, b) => a + b, 0));
  parts.push({ filter: `(&${part.filter}(!${anyOf(split)}))`, prefix: part.prefix, excluded: new Set([...part.excluded, ...split]), estimate: estimateOf(restShown) });
  return parts;
}

/** A search's share of the limit the parts are packed to: estimates are rough, an overflow costs a search. */
const FILL = 0.6;

/**
 * How many of the entries shown go on from `prefix` with each next character, as the prefix one
 * character longer (the character lower-cased, as the substring matching of names mostly
 * ignores case; as written when the lower-cased one is already split off), in order.
 */
export function nextPrefixes(shown: readonly LdapEntry[], attribute: string, prefix: string, excluded: ReadonlySet<string>): Map<string, number> {
  const counts = new Map<string, number>();
  const wanted = prefix.toLowerCase();
  for (const entry of shown) {
    const name = nameWith(entry, attribute, prefix, wanted);
    if (name === undefined || name.length === prefix.length) continue;
    const next = String.fromCodePoint(name.codePointAt(prefix.length)!);
    const key = [prefix + next.toLowerCase(), prefix + next].find((k) => !excluded.has(k));
    if (key !== undefined) counts.set(key, (counts.get(key) ?? 0) + 1);
  }
  return new Map([...counts].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
}

/** The shown entries with a name that starts with `prefix`, case aside. */
function shownUnder(shown: readonly LdapEntry[], attribute: string, prefix: string): LdapEntry[] {
  const wanted = prefix.toLowerCase();
  return shown.filter((e) => nameWith(e, attribute, prefix, wanted) !== undefined);
}

/** The entry's first name that starts with `prefix` (`wanted` being it lower-cased), case aside. */
function nameWith(entry: LdapEntry, attribute: string, prefix: string, wanted: string): string | undefined {
  for (const v of attributeValues(entry, attribute)) {
    if (v.length >= prefix.length && v.slice(0, prefix.length).toLowerCase() === wanted) return v;
  }
  return undefined;
}

/** The prefixes in order, in runs whose estimates add up to at most `fill` (each alone may exceed it); at least two runs of two or more prefixes. */
function packed(counts: ReadonlyArray<[string, number]>, estimateOf: (n: number) => number, fill: number): Array<Array<[string, number]>> {
  const groups: Array<Array<[string, number]>> = [];
  let current: Array<[string, number]> = [];
  let sum = 0;
  for (const entry of counts) {
    if (current.length > 0 && estimateOf(sum + entry[1]) > fill) {
      groups.push(current);
      current = [];
      sum = 0;
    }
    current.push(entry);
    sum += entry[1];
  }
  groups.push(current);
  if (groups.length === 1 && counts.length > 1) return counts.map((c) => [c]);
  return groups;
}
