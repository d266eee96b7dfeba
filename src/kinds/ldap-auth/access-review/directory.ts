/**
 * The directory as a plan's access review reads it: every user a login could find, and each
 * one's LDAP groups, computed by the login's own resolution (adapters/ldap/login-directory.ts)
 * on a small pool of connections bound as the config's binddn (and anonymous ones for the group
 * searches with anonymous_group_search, as the login does). No user password is known, so no
 * user bind: a user is one the login's user search (or derived DN) finds.
 */
import { escapeFilter, FilterParser, ResultCodeError, type Client } from 'ldapts';
import {
  attributeValues,
  derivedBindDn,
  ldapGroupsOf,
  LoginStepError,
  parseDn,
  renderFilterTemplate,
  searchedBindDn,
  searchEntries,
  searchesForUser,
  userEntryDn,
  userFilterValues,
  DEFAULT_USER_FILTER,
  type LdapEntry,
  type LdapTlsSettings,
  type LoginDirectorySettings,
} from '../../../adapters/ldap/index.js';
import { AdaptiveLimit } from '../../../client/adaptive-limit.js';
import { forEachBounded } from '../../../client/each-bounded.js';
import { ConnectionPool } from './connection-pool.js';
import { dnsFromListing, listingIsLoginSearch } from './listed-dns.js';

/** Where and how to connect: the config's url, TLS fields, timeouts and binddn/bindpass. */
export interface DirectoryConnectionSettings {
  url: string;
  tls: LdapTlsSettings;
  connectMs: number;
  requestMs: number;
}

/** Entries per page of the user enumeration (the paged-results control; the server may lower it). */
const PAGE_SIZE = 500;

/** Connections a review opens (per bind identity): enough for a directory's threads, few enough for its connection limits. */
const POOL_SIZE = 4;

/**
 * Login name → the user's LDAP groups, for every name the login would find; a name whose login
 * would fail to find its entry (several entries match it, say) maps to null. The enumeration
 * reads every page; a directory that stops it (a size limit) throws, never a shortened list.
 */
export async function directoryUsers(connection: DirectoryConnectionSettings, s: LoginDirectorySettings): Promise<Map<string, string[] | null>> {
  const timeouts = { connectMs: connection.connectMs, requestMs: connection.requestMs };
  const users = await ConnectionPool.open(POOL_SIZE, connection.url, connection.tls, timeouts, (c) => c.client.bind(s.binddn, s.bindpass));
  let groups: ConnectionPool | undefined;
  try {
    if (s.anonymous_group_search) groups = await ConnectionPool.open(POOL_SIZE, connection.url, connection.tls, timeouts, (c) => c.client.bind('', ''));
    const entries = await users.use((c) => enumerate(c.client, s));
    const listed = listingIsLoginSearch(s) ? dnsFromListing(entries, s.userattr) : undefined;
    return await resolveAll(loginNames(entries, s), listed, users, groups ?? users, s);
  } finally {
    await groups?.close();
    await users.close();
  }
}

/**
 * The entries a login could find: under userdn, by the userfilter with any name (search mode),
 * else by the derived DN's form. Paged; when the directory's size limit stops a search (it
 * counts every page), the search is split by the name's first characters, then the next ones,
 * each part small enough, so the limit is kept and no user is left out.
 */
async function enumerate(client: Client, s: LoginDirectorySettings): Promise<LdapEntry[]> {
  const attribute = s.upndomain ? 'userPrincipalName' : s.userattr;
  const all = enumerationFilter(s);
  const search = (filter: string) =>
    searchEntries(client, {
      base: s.userdn,
      // A derived DN is `<userattr>=<name>,<userdn>`: one level below userdn.
      scope: searchesForUser(s) || s.upndomain ? 'sub' : 'one',
      filter,
      attributes: [attribute],
      deref: s.dereference_aliases,
      pageSize: PAGE_SIZE,
    });
  const within = async (prefix: string): Promise<LdapEntry[]> => {
    const startsWith = (p: string) => `(${attribute}=${escapeFilter`${p}`}*)`;
    try {
      return await search(prefix === '' ? all : `(&${all}${startsWith(prefix)})`);
    } catch (err) {
      if (!isSizeLimit(err)) throw err;
    }
    const parts: LdapEntry[] = [];
    for (const c of NAME_CHARACTERS) parts.push(...(await within(prefix + c)));
    // What no part holds: the prefix itself, or names going on with another character.
    const rest = `(&${all}${prefix === '' ? '' : startsWith(prefix)}(!(|${[...NAME_CHARACTERS].map((c) => startsWith(prefix + c)).join('')})))`;
    try {
      parts.push(...(await search(rest)));
    } catch (err) {
      if (!isSizeLimit(err)) throw err;
      throw new Error(`the directory's size limit stops the search for users under ${s.userdn}${prefix ? ` whose ${attribute} starts with "${prefix}"` : ''} even in parts`);
    }
    return parts;
  };
  return within('');
}

/** The characters a part of the enumeration adds to its prefix (substring matching of names ignores case). */
const NAME_CHARACTERS = 'abcdefghijklmnopqrstuvwxyz0123456789';

function isSizeLimit(err: unknown): boolean {
  return err instanceof ResultCodeError && err.code === 4;
}

/**
 * The userfilter with every name: rendered with a marker for the name, the marker then made a
 * wildcard (`(uid={{.Username}})` → `(uid=*)`). A filter that does not parse so falls back to
 * the presence of the name's attribute: the per-name search decides anyway.
 */
export function enumerationFilter(s: LoginDirectorySettings): string {
  const attribute = s.upndomain ? 'userPrincipalName' : s.userattr;
  const presence = s.upndomain ? `(userPrincipalName=*@${escapeFilter`${s.upndomain}`})` : `(${attribute}=*)`;
  if (!searchesForUser(s)) return presence;
  const marker = 'lockstepaccessreviewname';
  const rendered = renderFilterTemplate(s.userfilter || DEFAULT_USER_FILTER, userFilterValues(s, marker));
  const filter = rendered.split(marker).join('*');
  try {
    FilterParser.parseString(filter);
    return filter;
  } catch {
    return presence;
  }
}

/** Each name an entry can log in with: its userattr values (upn: userPrincipalName without @upndomain); derived DNs: its RDN's value. */
function loginNames(entries: readonly LdapEntry[], s: LoginDirectorySettings): string[] {
  const names = new Set<string>();
  const suffix = `@${s.upndomain}`.toLowerCase();
  for (const entry of entries) {
    if (s.upndomain) {
      for (const upn of attributeValues(entry, 'userPrincipalName')) {
        if (upn.toLowerCase().endsWith(suffix)) names.add(upn.slice(0, upn.length - suffix.length));
      }
    } else if (searchesForUser(s)) {
      for (const value of attributeValues(entry, s.userattr)) names.add(value);
    } else {
      const first = parseDn(entry.dn)?.[0];
      const rdn = first?.length === 1 ? first[0] : undefined;
      if (rdn && rdn.type.toLowerCase() === s.userattr.toLowerCase()) names.add(rdn.value);
    }
  }
  return [...names].sort();
}

/**
 * Each name through the login's resolution, as many at once as the directory's pace allows,
 * spread over the pools. `listed`: the DNs the listing already decides (listed-dns.ts); the
 * first of them is also searched for, as a check that the listing and the login's search agree
 * on this directory (an attribute without an equality rule finds nothing by equality), and
 * when they do not, every name is searched for.
 */
async function resolveAll(
  names: readonly string[],
  listed: ReadonlyMap<string, string> | undefined,
  users: ConnectionPool,
  groups: ConnectionPool,
  s: LoginDirectorySettings,
): Promise<Map<string, string[] | null>> {
  const known = listed && (await listingAgrees(listed, users, s)) ? listed : new Map<string, string>();
  const out = new Map<string, string[] | null>();
  const limit = new AdaptiveLimit({ initial: 8, max: 64 });
  let inFlight = 0;
  await forEachBounded(names, () => limit.limit, async (name) => {
    const startedAt = performance.now();
    inFlight++;
    try {
      out.set(name, await resolveOne(name, known.get(name), users, groups, s));
    } finally {
      limit.onSample({ startedAt, endedAt: performance.now(), inFlight, outcome: 'ok' });
      inFlight--;
    }
  });
  return out;
}

/** The login's own search for one listed name finds the DN the listing gives it. */
async function listingAgrees(listed: ReadonlyMap<string, string>, users: ConnectionPool, s: LoginDirectorySettings): Promise<boolean> {
  const [first] = listed;
  if (!first) return true;
  const [name, dn] = first;
  try {
    return (await users.use((c) => searchedBindDn(c.client, s, name))) === dn;
  } catch (err) {
    if (err instanceof LoginStepError) return false;
    throw err;
  }
}

/** The login's steps 4, the entry DN and 7 for one name; null where the login would fail. */
async function resolveOne(name: string, listedDn: string | undefined, users: ConnectionPool, groups: ConnectionPool, s: LoginDirectorySettings): Promise<string[] | null> {
  try {
    const userDn = listedDn ?? (await users.use((c) => bindDnThenEntryDn(c.client, s, name)));
    return (await groups.use((c) => ldapGroupsOf(c.client, s, userDn, name))).groups;
  } catch (err) {
    if (err instanceof LoginStepError) return null;
    throw err;
  }
}

async function bindDnThenEntryDn(client: Client, s: LoginDirectorySettings, name: string): Promise<string> {
  const bindDn = searchesForUser(s) ? await searchedBindDn(client, s, name) : derivedBindDn(s, name);
  return userEntryDn(client, s, name, bindDn);
}
