/**
 * Every user's LDAP groups from one listing of the groups, instead of one group search per user,
 * where that is exactly what the login's group search (GetLdapGroups) would find. That holds
 * when the groupfilter is an OR of equalities each asserting the whole `{{.Username}}` or
 * `{{.UserDN}}` (the default filter is), searched under groupdn without dereferencing: a group
 * matches a user when one of those attributes holds a value equal to the user's name or DN
 * under the attribute's matching rule. We do not know the rule, so values are grouped by a key
 * coarser than any string or DN matching rule (listed-dns.ts matchKey; a DN by its RDN values'
 * keys, attribute types left out): a value byte for byte the user's matches, one only equal by
 * key might or might not, and that user's groups are searched for as the login does.
 */
import { EqualityFilter, FilterParser, OrFilter, type Filter } from 'ldapts';
import { parseDn, renderFilterTemplate, DEFAULT_GROUP_FILTER, type LdapEntry, type LoginDirectorySettings } from '../../../adapters/ldap/index.js';
import { matchKey, valuesWithSubtypes } from './listed-dns.js';

/** What to list: the filter with every asserted value a wildcard, and the attributes compared to the name or the DN. */
export interface GroupListing {
  filter: string;
  nameAttributes: string[];
  dnAttributes: string[];
}

const NAME = 'lockstepreviewname';
const DN = 'lockstepreviewdn';

/** The listing that stands for every user's group search, when there is one. */
export function groupListing(s: LoginDirectorySettings): GroupListing | undefined {
  if (s.use_token_groups || s.groupdn === '' || (s.dereference_aliases || 'never') !== 'never') return undefined;
  let filter: Filter;
  try {
    filter = FilterParser.parseString(renderFilterTemplate(s.groupfilter || DEFAULT_GROUP_FILTER, { Username: NAME, UserDN: DN }));
  } catch {
    return undefined;
  }
  const leaves = equalityLeaves(filter);
  if (!leaves) return undefined;
  const nameAttributes = leaves.filter((l) => l.value === NAME).map((l) => l.attribute);
  const dnAttributes = leaves.filter((l) => l.value === DN).map((l) => l.attribute);
  if (nameAttributes.length + dnAttributes.length !== leaves.length) return undefined;
  const presence = [...nameAttributes, ...dnAttributes].map((a) => `(${a}=*)`).join('');
  return { filter: leaves.length === 1 ? presence : `(|${presence})`, nameAttributes, dnAttributes };
}

/** The filter's leaves when it is ORs of equalities and nothing else. */
function equalityLeaves(f: Filter): Array<{ attribute: string; value: string }> | undefined {
  if (f instanceof OrFilter) {
    const all = f.filters.map(equalityLeaves);
    return all.every((l) => l !== undefined) ? all.flat() : undefined;
  }
  if (f instanceof EqualityFilter && typeof f.value === 'string') return [{ attribute: f.attribute, value: f.value }];
  return undefined;
}

/**
 * The index of the listed groups; undefined when a group shows none of the compared attributes
 * (it matched the listing by a value it does not show) or a DN value no key can be made for.
 * `namesOf`: the login's group names of the groups it finds (groupNamesOf with the config's
 * groupattr).
 */
export function indexGroups(entries: readonly LdapEntry[], listing: GroupListing, namesOf: (groups: readonly LdapEntry[]) => string[]): GroupIndex | undefined {
  const index = new GroupIndex(entries, namesOf);
  const nameAttributes = listing.nameAttributes.map((a) => a.toLowerCase());
  const dnAttributes = listing.dnAttributes.map((a) => a.toLowerCase());
  for (const [place, entry] of entries.entries()) {
    let shown = 0;
    for (const value of valuesWithSubtypes(entry, nameAttributes)) {
      shown++;
      index.holdsName(place, value);
    }
    for (const value of valuesWithSubtypes(entry, dnAttributes)) {
      shown++;
      if (!index.holdsDn(place, value)) return undefined;
    }
    if (shown === 0) return undefined;
  }
  return index;
}

/** The listed groups by the keys of the values that can match a user. */
export class GroupIndex {
  readonly #entries: readonly LdapEntry[];
  readonly #names = new HeldValues(matchKey, false);
  readonly #dns = new HeldValues(dnKey, true);
  /** The names of a set of groups by their places: users in the same groups share one list. */
  readonly #namesBySet = new Map<string, readonly string[]>();
  readonly #namesOf: (groups: readonly LdapEntry[]) => string[];
  /** Places held only by a value equal by key, gathered for one groupsOf call (reused: no array per user). */
  readonly #open: number[] = [];

  constructor(entries: readonly LdapEntry[], namesOf: (groups: readonly LdapEntry[]) => string[]) {
    this.#entries = entries;
    this.#namesOf = namesOf;
  }

  /** The group at `place` holds `value` in an attribute compared to the user's name. */
  holdsName(place: number, value: string): void {
    this.#names.add(place, value);
  }

  /** The group at `place` holds `value` in an attribute compared to the user's DN; false when it is no DN a key can be made for. */
  holdsDn(place: number, value: string): boolean {
    return this.#dns.add(place, value);
  }

  /**
   * The values the groups `wanted` (by their login names, namesOf of the group alone) hold: in
   * attributes compared to the user's name, and to the user's DN. The access review of a
   * change of mappings reads only the users these can match (affected-users.ts).
   */
  heldBy(wanted: (names: readonly string[]) => boolean): { names: string[]; dns: string[] } {
    const places = new Set<number>();
    for (const [place, entry] of this.#entries.entries()) if (wanted(this.#namesOf([entry]))) places.add(place);
    return { names: this.#names.valuesAt(places), dns: this.#dns.valuesAt(places) };
  }

  /**
   * The names of the users the groups hold, as far as the values show them: the values compared
   * to the user's name, and of the DNs under `base` (compared case aside) the first RDN's value
   * when its type is `attribute`. A sample for sizing the listing of the users (split-listing.ts).
   */
  memberNames(attribute: string, base: string): string[] {
    const names = [...this.#names.values()];
    const type = attribute.toLowerCase();
    const suffix = `,${base}`;
    const lowerSuffix = suffix.toLowerCase();
    for (const dn of this.#dns.values()) {
      const equals = dn.indexOf('=');
      const comma = dn.indexOf(',');
      if (equals < 0 || comma < equals) continue;
      // As written first (member DNs mostly spell the base as the config does), then case aside.
      const under = dn.endsWith(suffix) || (dn.length >= suffix.length && dn.slice(dn.length - suffix.length).toLowerCase() === lowerSuffix);
      if (!under || dn.slice(0, equals).trim().toLowerCase() !== type) continue;
      // Escaped values (a `\` in the RDN) are left out: a sample need not hold every name.
      const value = dn.slice(equals + 1, comma).trim();
      if (!value.includes('\\')) names.push(value);
    }
    return names;
  }

  /**
   * The group names the login of `name` (entry `dn`) finds, from its groups in listing order;
   * 'search' when a value only equal by key leaves it open. Users in the same groups share the
   * list: not to be changed.
   */
  groupsOf(name: string, dn: string): readonly string[] | 'search' {
    const open = this.#open;
    open.length = 0;
    const byDn = this.#dns.placesOf(dn, open);
    if (byDn === undefined) return 'search';
    const byName = this.#names.placesOf(name, open)!;
    const places = byName.length === 0 ? byDn : byDn.length === 0 ? byName : union(byName, byDn);
    if (open.some((p) => !places.includes(p))) return 'search';
    const set = places.join(',');
    let names = this.#namesBySet.get(set);
    if (!names) this.#namesBySet.set(set, (names = this.#namesOf(places.map((p) => this.#entries[p]!))));
    return names;
  }
}

/**
 * The values the listed groups hold in one kind of attribute (compared to the name, or to the
 * DN), each distinct value once with the places of the groups holding it (ascending: groups
 * are added in listing order) and its key, computed once; and by key, the distinct values that
 * share it (nearly always one, kept as the text itself).
 */
class HeldValues {
  readonly #byValue = new Map<string, { places: number[]; key: string }>();
  readonly #byKey = new Map<string, string | string[]>();

  constructor(
    private readonly keyOf: (value: string) => string | undefined,
    private readonly keyCanFail: boolean,
  ) {}

  /** False when no key can be made for `value`. */
  add(place: number, value: string): boolean {
    const held = this.#byValue.get(value);
    if (held) {
      if (held.places[held.places.length - 1] !== place) held.places.push(place);
      return true;
    }
    const key = this.keyOf(value);
    if (key === undefined) return false;
    this.#byValue.set(value, { places: [place], key });
    const sharing = this.#byKey.get(key);
    if (sharing === undefined) this.#byKey.set(key, value);
    else if (typeof sharing === 'string') this.#byKey.set(key, [sharing, value]);
    else sharing.push(value);
    return true;
  }

  /** Every distinct value held. */
  values(): IterableIterator<string> {
    return this.#byValue.keys();
  }

  /** The distinct values held by a group at one of `places`. */
  valuesAt(places: ReadonlySet<number>): string[] {
    if (places.size === 0) return [];
    return [...this.#byValue].filter(([, held]) => held.places.some((p) => places.has(p))).map(([value]) => value);
  }

  /**
   * The places holding `value` byte for byte; the places of values equal to it only by key go
   * to `open`. Undefined when no key can be made for `value`.
   */
  placesOf(value: string, open: number[]): readonly number[] | undefined {
    const held = this.#byValue.get(value);
    // Nothing held: no key to compare, only whether one can be made (a DN that does not parse is searched for).
    if (!held && this.#byKey.size === 0) return this.keyCanFail && this.keyOf(value) === undefined ? undefined : NONE;
    const key = held?.key ?? this.keyOf(value);
    if (key === undefined) return undefined;
    const sharing = this.#byKey.get(key);
    if (typeof sharing === 'object') {
      for (const other of sharing) if (other !== value) open.push(...this.#byValue.get(other)!.places);
    } else if (sharing !== undefined && sharing !== value) {
      open.push(...this.#byValue.get(sharing)!.places);
    }
    return held?.places ?? NONE;
  }
}

const NONE: readonly number[] = [];

/** Two ascending lists of places as one, ascending, each place once. */
function union(a: readonly number[], b: readonly number[]): number[] {
  return [...new Set([...a, ...b])].sort((x, y) => x - y);
}

/**
 * Equal for any two DNs distinguishedNameMatch may call equal: each RDN's values by matchKey,
 * a multi-valued RDN's in any order, attribute types left out (`uid` and its OID are one type).
 * Undefined for what does not parse or holds a BER-encoded (`#...`) value.
 */
export function dnKey(dn: string): string | undefined {
  if (PLAIN_DN.test(dn) && dn.trim() !== '') return plainDnKey(dn);
  const rdns = parseDn(dn);
  if (!rdns) return undefined;
  const parts: string[] = [];
  for (const rdn of rdns) {
    if (rdn.some((a) => a.value.startsWith('#'))) return undefined;
    parts.push(rdn.map((a) => matchKey(a.value)).sort().join('+'));
  }
  return parts.join(',');
}

/** ASCII without escapes, multi-valued RDNs, `;` separators or `#` values: most DNs a listing holds. */
const PLAIN_DN = /^[\u0020-\u0022\u0024-\u002a\u002c-\u003a\u003c-\u005b\u005d-\u007e]*$/;

/** dnKey of a plain DN: each RDN's value is what follows its first `=`, up to the next `,`. */
function plainDnKey(dn: string): string | undefined {
  const parts: string[] = [];
  for (const rdn of dn.split(',')) {
    const equals = rdn.indexOf('=');
    if (equals < 0 || rdn.slice(0, equals).trim() === '') return undefined;
    parts.push(matchKey(rdn.slice(equals + 1)));
  }
  return parts.join(',');
}
