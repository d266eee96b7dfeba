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

/** A value of a listed group: the group by its place in the listing. */
interface Holder {
  place: number;
  value: string;
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
  readonly #byName = new Map<string, Holder[]>();
  readonly #byDn = new Map<string, Holder[]>();
  /** dnKey by DN, each computed once: a user's DN is mostly a member value keyed already. */
  readonly #dnKeys = new Map<string, string | undefined>();
  /** The names of a set of groups by their places: users in the same groups share one list. */
  readonly #namesBySet = new Map<string, readonly string[]>();
  readonly #namesOf: (groups: readonly LdapEntry[]) => string[];

  constructor(entries: readonly LdapEntry[], namesOf: (groups: readonly LdapEntry[]) => string[]) {
    this.#entries = entries;
    this.#namesOf = namesOf;
  }

  /** The group at `place` holds `value` in an attribute compared to the user's name. */
  holdsName(place: number, value: string): void {
    add(this.#byName, matchKey(value), { place, value });
  }

  /** The group at `place` holds `value` in an attribute compared to the user's DN; false when it is no DN a key can be made for. */
  holdsDn(place: number, value: string): boolean {
    const key = this.#dnKey(value);
    if (key === undefined) return false;
    add(this.#byDn, key, { place, value });
    return true;
  }

  /**
   * The group names the login of `name` (entry `dn`) finds, from its groups in listing order;
   * 'search' when a value only equal by key leaves it open. Users in the same groups share the
   * list: not to be changed.
   */
  groupsOf(name: string, dn: string): readonly string[] | 'search' {
    const key = this.#dnKey(dn);
    if (key === undefined) return 'search';
    const places: number[] = [];
    const open: number[] = [];
    for (const h of this.#byName.get(matchKey(name)) ?? []) (h.value === name ? places : open).push(h.place);
    for (const h of this.#byDn.get(key) ?? []) (h.value === dn ? places : open).push(h.place);
    if (open.some((p) => !places.includes(p))) return 'search';
    // The user's few groups put in listing order, not the listing walked for each user.
    places.sort((a, b) => a - b);
    for (let i = places.length - 1; i > 0; i--) if (places[i] === places[i - 1]) places.splice(i, 1);
    const set = places.join(',');
    let names = this.#namesBySet.get(set);
    if (!names) this.#namesBySet.set(set, (names = this.#namesOf(places.map((p) => this.#entries[p]!))));
    return names;
  }

  #dnKey(dn: string): string | undefined {
    if (this.#dnKeys.has(dn)) return this.#dnKeys.get(dn);
    const key = dnKey(dn);
    this.#dnKeys.set(dn, key);
    return key;
  }
}

function add(map: Map<string, Holder[]>, key: string, holder: Holder): void {
  (map.get(key) ?? map.set(key, []).get(key)!).push(holder);
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
