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
 *
 * A stopped search shows its first entries in the directory's order, which is often the order
 * they were added: numbered names show their first numbers only, and the parts sized from them
 * overflow in turn, each overflow a search of the limit's worth sent for nothing. Where the
 * caller knows names the listing likely holds (the members of the listed groups), the first
 * split is sized from those instead, scaled by the share of the shown entries among them.
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
 * Names the listing likely holds, for sizing its first split (undefined: none known). Only an
 * estimate: a name it lacks or holds wrongly costs a search, never an entry.
 */
export type NameSample = () => Promise<readonly string[] | undefined>;

/**
 * Every entry of `filter`, deduplicated by DN (an entry with several names can be in several
 * parts), in as many searches as the limit needs: with no limit, one. `sample`, asked for only
 * when the limit stops the first search, sizes that search's split (sampledSplit).
 */
export async function listWithinLimit(search: PartSearch, filter: string, attribute: string, what: string, sample?: NameSample): Promise<LdapEntry[]> {
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
    const first = shownLimit === undefined;
    shownLimit ??= answer.entries.length;
    stopped.push({ filter: part.filter, dns: answer.entries.map((e) => e.dn) });
    const limit = Math.max(1, answer.entries.length);
    // An estimate that cannot be had is no reason to fail the listing.
    const names = first && sample ? await sample().catch(() => undefined) : undefined;
    const parts = (names && sampledSplit(part, answer.entries, names, attribute, limit)) ?? splitPart(part, answer.entries, attribute, limit, what);
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
 * The share of a stopped search's entries a sample must hold to size the split: below it, the
 * sampled names under a prefix are too few to say much (test/bench/split-listing.mjs: 10,000
 * names at a limit of 500, a sample of a tenth stops fewer searches than the shown entries alone).
 */
const SAMPLE_COVERAGE = 0.1;

/**
 * A sampled split packs its parts to this share of the limit, and splits further a prefix whose
 * estimate reaches it: the estimate is close (a part of a sample of 60% of the names, estimated
 * at 450, holds 450 ± 30 entries), so the parts are filled nearer the limit than those sized from
 * a stopped search's first entries (FILL). An estimate that misses costs one stopped search.
 */
const SAMPLED_FILL = 0.9;

/**
 * The parts of `part` (stopped after `shown`) sized from `sample`: each sampled name stands for
 * 1/coverage entries, coverage being the share of the shown entries whose name the sample holds
 * (case aside). Undefined when the sample covers too few of them to say how the part spreads.
 */
export function sampledSplit(part: ListingPart, shown: readonly LdapEntry[], sample: readonly string[], attribute: string, limit: number): ListingPart[] | undefined {
  // Lower-cased: the split's prefixes are (nextPrefixes), and the sample then counts each name once.
  const names = new Set<string>();
  for (const name of sample) names.add(name.toLowerCase());
  const covered = shown.filter((e) => attributeValues(e, attribute).some((v) => names.has(v.toLowerCase()))).length;
  const coverage = covered / Math.max(1, shown.length);
  if (coverage < SAMPLE_COVERAGE) return undefined;
  const estimateOf = (n: number) => n / coverage;
  const sizing = { estimateOf, splitAlone: (n: number) => estimateOf(n) >= SAMPLED_FILL * limit, fill: SAMPLED_FILL * limit };
  // Lower-cased names start with a prefix made of them when they start with it as written.
  const nameOf = (name: string, _prefix: string, wanted: string) => (name.startsWith(wanted) ? name : undefined);
  const byNext = itemsByNextPrefix([...names], nameOf, part.prefix, part.excluded);
  if (byNext.size === 0) return undefined;
  return splitBy(part, names.size, byNext, nameOf, attribute, limit, sizing);
}

/** How shown counts become estimates, and when a prefix packed alone is split without being searched. */
interface Sizing {
  estimateOf: (shownCount: number) => number;
  splitAlone: (shownCount: number) => boolean;
  /** The estimate a run of prefixes is packed up to. */
  fill: number;
}

/**
 * The parts to search instead of `part`, which the limit stopped after `shown` (`limit` entries).
 * Throws when the entries shown cannot split it (they all hold exactly the prefix, say).
 * `sizing`: given for a sample's entries (kept down the split); else from the part's estimate.
 */
export function splitPart(part: ListingPart, shown: readonly LdapEntry[], attribute: string, limit: number, what: string, sizing?: Sizing): ListingPart[] {
  const nameOf = (entry: LdapEntry, prefix: string, wanted: string) => nameWith(entry, attribute, prefix, wanted);
  const byNext = itemsByNextPrefix(shown, nameOf, part.prefix, part.excluded);
  if (byNext.size === 0) {
    throw new Error(`the directory's size limit stops the search for ${what}${part.prefix ? ` whose ${attribute} starts with "${part.prefix}"` : ''} even in parts`);
  }
  return splitBy(part, shown.length, byNext, nameOf, attribute, limit, sizing);
}

/** An item's first name that starts with `prefix` (`wanted` being it lower-cased), case aside. */
type NameOf<T> = (item: T, prefix: string, wanted: string) => string | undefined;

/** splitPart of a part whose shown items (`shownCount`: entries, or a sample's names) are grouped by their next prefixes (none empty). */
function splitBy<T>(part: ListingPart, shownCount: number, byNext: ReadonlyMap<string, readonly T[]>, nameOf: NameOf<T>, attribute: string, limit: number, sizing: Sizing | undefined): ListingPart[] {
  // What the part holds, were it shown whole: more than the limit; twice what it was expected to hold.
  const total = Math.max(2 * limit, 2 * part.estimate);
  const estimateOf = sizing?.estimateOf ?? ((n: number) => (total * n) / shownCount);
  const splitAlone = sizing?.splitAlone ?? ((n: number) => n >= limit);
  const counts: Array<[string, number]> = [...byNext].map(([p, under]) => [p, under.length]);
  const groups = packed(counts, estimateOf, sizing?.fill ?? FILL * limit);
  const startsWith = (p: string) => `(${attribute}=${escapeFilter`${p}`}*)`;
  const anyOf = (prefixes: readonly string[]) => (prefixes.length === 1 ? startsWith(prefixes[0]!) : `(|${prefixes.map(startsWith).join('')})`);
  // The last run is left to the rest, which always is searched, unless it is one prefix to split
  // (the rest would overflow with it); a single run is searched itself.
  const last = groups.at(-1)!;
  const leaveLast = groups.length > 1 && !(last.length === 1 && splitAlone(last[0]![1]));
  const searched = leaveLast ? groups.slice(0, -1) : groups;
  const left = leaveLast ? last : [];
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
    // Too many for one search on its own (shown the limit's worth, say): split without asking.
    const under = prefixes.length === 1 && splitAlone(n) ? byNext.get(child.prefix)! : [];
    const deeper = under.length > 0 ? itemsByNextPrefix(under, nameOf, child.prefix, child.excluded) : undefined;
    if (deeper && deeper.size > 0) {
      parts.push(...splitBy(child, under.length, deeper, nameOf, attribute, limit, sizing));
    } else {
      parts.push(child);
    }
  }
  const split = searched.flat().map(([p]) => p);
  const restShown = left.reduce((sum, [, c]) => sum + c, 0) + (shownCount - counts.reduce((sum, [, c]) => sum + c, 0));
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
  const nameOf = (entry: LdapEntry, p: string, wanted: string) => nameWith(entry, attribute, p, wanted);
  return new Map([...itemsByNextPrefix(shown, nameOf, prefix, excluded)].map(([p, under]) => [p, under.length]));
}

/** The shown items by the next prefix their first name under `prefix` goes on with (nextPrefixes), in order. */
function itemsByNextPrefix<T>(shown: readonly T[], nameOf: NameOf<T>, prefix: string, excluded: ReadonlySet<string>): Map<string, T[]> {
  const byNext = new Map<string, T[]>();
  const wanted = prefix.toLowerCase();
  // The key of each next character worked out once (undefined: both spellings split off already).
  const keys = new Map<number, string | undefined>();
  for (const item of shown) {
    const name = nameOf(item, prefix, wanted);
    if (name === undefined || name.length === prefix.length) continue;
    const code = name.codePointAt(prefix.length)!;
    let key = keys.get(code);
    if (key === undefined && !keys.has(code)) {
      const next = String.fromCodePoint(code);
      const lower = prefix + next.toLowerCase();
      key = !excluded.has(lower) ? lower : !excluded.has(prefix + next) ? prefix + next : undefined;
      keys.set(code, key);
    }
    if (key === undefined) continue;
    const under = byNext.get(key);
    if (under) under.push(item);
    else byNext.set(key, [item]);
  }
  return new Map([...byNext].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
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
