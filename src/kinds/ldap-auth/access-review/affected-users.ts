/**
 * The directory users a change of local mappings alone can change, found without listing every
 * user. When the directory and policy settings are the same before and after, a user's
 * policies change only through a local group that changes (the login maps its LDAP group names,
 * or its local user's groups, to local groups) or its own local user. So the users to read are
 * (a) those whose name is a local user that changes, (b) those whose name is a local user whose
 * groups name a changed group, and (c) those the login's group search puts in a listed group
 * whose name is a changed one: the values such a group holds name them (compared to the name)
 * or are their entries' DNs (compared to the DN). Each is then resolved as the login resolves
 * it. A user read needlessly gets the same policies before and after and is not reported; one
 * missed would be, so anything this cannot decide exactly returns undefined, and every user is
 * read (directory.ts).
 */
import { escapeFilter } from 'ldapts';
import { canonicalName, isNoSuchObject, searchEntries, type LdapEntry, type LoginDirectorySettings } from '../../../adapters/ldap/index.js';
import { forEachBounded } from '../../../client/each-bounded.js';
import type { ConnectionPool } from './connection-pool.js';
import { equalityRules } from './equality-rules.js';
import { listingIsLoginSearch } from './listed-dns.js';
import { dnKey, groupListing, type GroupIndex, type GroupListing } from './listed-groups.js';
import { enumerationFilter, loginNames } from './login-names.js';
import type { AffectedBy } from './mappings.js';

/** Values asked for in one search: a short filter, few entries (a size limit stops it otherwise, and every user is read). */
const VALUES_PER_SEARCH = 25;

/** Entries read by DN at once. */
const READS_IN_FLIGHT = 16;

/**
 * The login names of the users the change `affected` can reach (a superset), from the groups
 * the index lists; undefined when that cannot be decided exactly here (the group search not
 * the listing, users not found by a search the listing mirrors, matching rules not known to
 * relate as needed, a search stopped).
 */
export async function affectedNames(pool: ConnectionPool, index: GroupIndex, affected: AffectedBy, s: LoginDirectorySettings): Promise<string[] | undefined> {
  const listing = groupListing(s);
  if (!listing || s.discoverdn || !listingIsLoginSearch(s)) return undefined;
  const userdn = dnKey(s.userdn);
  if (userdn === undefined) return undefined;
  // backend.go Login looks local groups up by the LDAP group names, lower-cased unless case-sensitive.
  const nameCase = { case_sensitive_names: affected.caseSensitive };
  const localGroupOf = (ldapName: string) => canonicalName(nameCase, ldapName);
  try {
    const rules = await pool.use((c) => equalityRules(c.client, [s.userattr, ...listing.nameAttributes, ...listing.dnAttributes]));
    if (!comparable(rules, s.userattr, listing)) return undefined;
    const held = index.heldBy((names) => names.some((n) => affected.groups.has(localGroupOf(n))));
    const byName = await entriesHolding(pool, s, [...new Set([...held.names, ...affected.users])]);
    const byDn = await entriesAt(pool, s, held.dns, userdn);
    return loginNames([...byName, ...byDn], s);
  } catch {
    // A schema or a DN that does not read, a search the size limit stops: every user is read instead.
    return undefined;
  }
}

/** Rules under which `(userattr=<value>)` finds every user whose name a held value (or a changed local user's name) can equal. */
const CASE_IGNORE = new Set(['caseignorematch', '2.5.13.2', 'caseignoreia5match', '1.3.6.1.4.1.1466.109.114.2']);
/** Rules no coarser than case-ignoring ones: a name equal under them is found by a case-ignoring search. */
const NO_COARSER = new Set([...CASE_IGNORE, 'caseexactmatch', '2.5.13.5', 'caseexactia5match', '1.3.6.1.4.1.1466.109.114.1']);
/** DN comparisons a read of the DN itself makes as well (the directory finds the entry by the same rule). */
const DN_RULES = new Set(['distinguishednamematch', '2.5.13.1', 'uniquemembermatch', '2.5.13.23']);

/**
 * The user's name attribute ignores case (so a local user's name finds every name it is the
 * local user of, and a held name every user name equal to it), the group attributes compared
 * to the name compare no more loosely, and those compared to the DN compare DNs.
 */
function comparable(rules: ReadonlyMap<string, string | undefined>, userattr: string, listing: GroupListing): boolean {
  const rule = (a: string) => rules.get(a.toLowerCase()) ?? '';
  return CASE_IGNORE.has(rule(userattr)) && listing.nameAttributes.every((a) => NO_COARSER.has(rule(a))) && listing.dnAttributes.every((a) => DN_RULES.has(rule(a)));
}

/** The entries the enumeration would list whose name equals one of `values` (the login's own search, several names at once). */
async function entriesHolding(pool: ConnectionPool, s: LoginDirectorySettings, values: readonly string[]): Promise<LdapEntry[]> {
  const batches: string[][] = [];
  for (let i = 0; i < values.length; i += VALUES_PER_SEARCH) batches.push(values.slice(i, i + VALUES_PER_SEARCH));
  const found: LdapEntry[] = [];
  const equal = (v: string) => `(${s.userattr}=${escapeFilter`${v}`})`;
  await forEachBounded(batches, READS_IN_FLIGHT, async (batch) => {
    const filter = `(&${enumerationFilter(s)}(|${batch.map(equal).join('')}))`;
    found.push(...(await pool.use((c) => searchEntries(c.client, { base: s.userdn, filter, attributes: [s.userattr], deref: s.dereference_aliases }))));
  });
  return found;
}

/** The entries at `dns` the enumeration would list (under userdn, matching its filter); a DN that names no entry names no user. */
async function entriesAt(pool: ConnectionPool, s: LoginDirectorySettings, dns: readonly string[], userdn: string): Promise<LdapEntry[]> {
  const found: LdapEntry[] = [];
  const filter = enumerationFilter(s);
  const under = (dn: string) => {
    const key = dnKey(dn);
    return key !== undefined && (userdn === '' || key === userdn || key.endsWith(`,${userdn}`));
  };
  await forEachBounded(dns, READS_IN_FLIGHT, async (dn) => {
    try {
      const entries = await pool.use((c) => searchEntries(c.client, { base: dn, scope: 'base', filter, attributes: [s.userattr], deref: s.dereference_aliases }));
      found.push(...entries.filter((e) => under(e.dn)));
    } catch (err) {
      if (!isNoSuchObject(err)) throw err;
    }
  });
  return found;
}
