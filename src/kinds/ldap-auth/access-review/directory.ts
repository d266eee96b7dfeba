/**
 * The directory as a plan's access review reads it: every user a login could find, and each
 * one's LDAP groups, computed by the login's own resolution (adapters/ldap/login-directory.ts)
 * on a small pool of connections bound as the config's binddn (and anonymous ones for the group
 * searches with anonymous_group_search, as the login does). No user password is known, so no
 * user bind: a user is one the login's user search (or derived DN) finds.
 */
import type { Client } from 'ldapts';
import {
  derivedBindDn,
  ldapGroupsOf,
  LoginStepError,
  searchedBindDn,
  searchUpToLimit,
  searchesForUser,
  userEntryDn,
  groupNamesOf,
  type LdapEntry,
  type SearchSpec,
  type LdapTlsSettings,
  type LoginDirectorySettings,
} from '../../../adapters/ldap/index.js';
import { AdaptiveLimit } from '../../../client/adaptive-limit.js';
import { forEachBounded } from '../../../client/each-bounded.js';
import { affectedNames } from './affected-users.js';
import { ConnectionPool } from './connection-pool.js';
import { dnsFromListing, listingIsLoginSearch } from './listed-dns.js';
import { groupListing, indexGroups, type GroupIndex } from './listed-groups.js';
import { enumerationFilter, loginNames } from './login-names.js';
import type { AffectedBy } from './mappings.js';
import { listWithinLimit, type NameSample } from './split-listing.js';

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

/** The most reads in flight at once, however fast the directory answers. */
const MAX_IN_FLIGHT = 64;

/**
 * Login name → the user's LDAP groups; null where the login would fail to find the user's entry.
 * Users given the same groups in the same order share one list (a reader may key by the list).
 */
export type DirectoryUsers = Map<string, readonly string[] | null>;

/** A directory the review reached and bound to, its users being read. */
export interface DirectoryRead {
  /** Settles once every user read is resolved and the connections are closed. */
  users: Promise<DirectoryUsers>;
  /** Which users `users` holds: every one, or those a change of mappings can reach (ReadScope); absent: every one. */
  scope?: Promise<ReadScope['kind']>;
}

/**
 * Which users to read: every user, or (a change of local mappings alone, the directory and
 * policy settings the same on both sides) only those it can reach (affected-users.ts), `by`
 * called once the directory answered. Where those cannot be found exactly, every user is read.
 */
export type ReadScope = { kind: 'everyone' } | { kind: 'affected'; by: () => AffectedBy };

/**
 * Connects and binds (failing as soon as the directory cannot be reached or refuses the bind),
 * then reads every user the login could find on those connections: the caller does its own work
 * only once the directory answered. A name whose login would fail to find its entry (several
 * entries match it, say) maps to null. The enumeration reads every page; a directory that stops
 * it (a size limit) rejects `users`, never a shortened list. `signal` abandons it all: the
 * connections close at once (a read started ahead that the plan no longer needs).
 */
export async function openDirectory(
  connection: DirectoryConnectionSettings,
  s: LoginDirectorySettings,
  scope: ReadScope = { kind: 'everyone' },
  signal?: AbortSignal,
): Promise<DirectoryRead> {
  const timeouts = { connectMs: connection.connectMs, requestMs: connection.requestMs };
  // One pace for every read of the review, whichever identity it binds as.
  const limit = new AdaptiveLimit({ initial: 8, max: MAX_IN_FLIGHT });
  const users = await ConnectionPool.open(POOL_SIZE, limit, connection.url, connection.tls, timeouts, (c) => c.client.bind(s.binddn, s.bindpass), signal);
  let groups: ConnectionPool | undefined;
  try {
    if (s.anonymous_group_search) groups = await ConnectionPool.open(POOL_SIZE, limit, connection.url, connection.tls, timeouts, (c) => c.client.bind('', ''), signal);
  } catch (err) {
    await users.close();
    throw err;
  }
  const read = readUsers(users, groups, s, scope);
  const usersRead = read.then((r) => r.users);
  // Handled by the caller unless another read of its review failed first (the review is then skipped).
  usersRead.catch(() => undefined);
  return { users: usersRead, scope: read.then((r) => r.scope, () => scope.kind) };
}

/** Every user's groups (openDirectory), connected and bound in one step. */
export async function directoryUsers(connection: DirectoryConnectionSettings, s: LoginDirectorySettings): Promise<DirectoryUsers> {
  return (await openDirectory(connection, s)).users;
}

async function readUsers(users: ConnectionPool, groups: ConnectionPool | undefined, s: LoginDirectorySettings, scope: ReadScope): Promise<{ users: DirectoryUsers; scope: ReadScope['kind'] }> {
  try {
    // The users and the groups listed at once: neither needs the other.
    const groupIndex = listGroups(groups ?? users, s);
    if (scope.kind === 'affected') {
      const index = await groupIndex;
      const names = index && (await affectedNames(users, index, scope.by(), s));
      if (names) return { users: await resolveAll(names, undefined, index, users, groups ?? users, s), scope: 'affected' };
    }
    const entries = await enumerate(users, s, groupIndex).catch(async (err: unknown) => {
      await groupIndex;
      throw err;
    });
    const listed = listingIsLoginSearch(s) ? dnsFromListing(entries, s.userattr) : undefined;
    return { users: await resolveAll(loginNames(entries, s), listed, await groupIndex, users, groups ?? users, s), scope: 'everyone' };
  } finally {
    await groups?.close();
    await users.close();
  }
}

/**
 * The entries a login could find: under userdn, by the userfilter with any name (search mode),
 * else by the derived DN's form. A size limit's split is sized from the listed groups' members
 * (awaited only then).
 */
function enumerate(pool: ConnectionPool, s: LoginDirectorySettings, groupIndex: Promise<GroupIndex | undefined>): Promise<LdapEntry[]> {
  const attribute = s.upndomain ? 'userPrincipalName' : s.userattr;
  const spec = {
    base: s.userdn,
    // A derived DN is `<userattr>=<name>,<userdn>`: one level below userdn.
    scope: searchesForUser(s) || s.upndomain ? ('sub' as const) : ('one' as const),
    filter: enumerationFilter(s),
    attributes: [attribute],
    deref: s.dereference_aliases,
  };
  const members = async () => (await groupIndex)?.memberNames(attribute, s.userdn);
  return listAll(pool, spec, attribute, `users under ${s.userdn}`, members);
}

/**
 * Every entry `spec` finds, paged; when the directory's size limit stops the search (it counts
 * every page), in parts by `splitOn`'s first characters, sized from what the limit let through
 * (split-listing.ts), each part's search on the pool. A limit that stopped the first search
 * within its first page is one paging does not lift: the parts are then sent without paging,
 * asking for at most that many entries (the directory's own limit may be lower unpaged), so a
 * stopped part takes one request, not a full page and a second request the limit stops, and
 * any connection can carry it, not only one not paging already.
 */
function listAll(pool: ConnectionPool, spec: Required<Omit<SearchSpec, 'pageSize' | 'sizeLimit'>>, splitOn: string, what: string, sample?: NameSample): Promise<LdapEntry[]> {
  // Lowered for the rest of the listing when the directory refuses a page this large (its size.pr).
  let pageSize = PAGE_SIZE;
  const paged = async (filter: string) => {
    const found = await pool.use((c) => searchUpToLimit(c.client, { ...spec, filter, pageSize }), true);
    if (found.pageSize !== undefined && found.pageSize < pageSize) pageSize = found.pageSize;
    return found;
  };
  const search = (filter: string, shownLimit: number | undefined) =>
    shownLimit !== undefined && shownLimit <= pageSize ? pool.use((c) => searchUpToLimit(c.client, { ...spec, filter, sizeLimit: shownLimit })) : paged(filter);
  return listWithinLimit(search, spec.filter, splitOn, what, sample);
}

/**
 * Each name through the login's resolution, as many at once as the directory's pace allows,
 * spread over the pools. `listed`: the DNs the listing of users already decides (listed-dns.ts);
 * the groups from one listing of the groups where it decides them (listed-groups.ts). Both are
 * checked first against the login's own searches for a few names (an attribute without an
 * equality rule finds nothing by equality, say); where they disagree, every name is searched.
 */
async function resolveAll(
  names: readonly string[],
  listed: ReadonlyMap<string, string> | undefined,
  groupIndex: GroupIndex | undefined,
  users: ConnectionPool,
  groups: ConnectionPool,
  s: LoginDirectorySettings,
): Promise<DirectoryUsers> {
  const searchAll: Shortcuts = { dns: new Map(), groups: undefined };
  const candidate: Shortcuts = { dns: listed ?? new Map(), groups: groupIndex };
  const probes = names.slice(0, PROBES);
  const agree = await Promise.all(probes.map(async (name) => sameResult(await tryResolve(name, candidate, users, groups, s), await tryResolve(name, searchAll, users, groups, s))));
  const shortcuts = agree.every(Boolean) ? candidate : searchAll;
  const out: DirectoryUsers = new Map();
  // The names the listings decide at once, without a promise each; the others read the directory.
  const toRead: string[] = [];
  for (const name of names) {
    const listed = fromListings(name, shortcuts);
    if (listed) out.set(name, listed);
    else toRead.push(name);
  }
  // Each searched user's list is fresh: those with the same groups are given one.
  const shared = new Map<string, readonly string[]>();
  const sharedList = (list: readonly string[]) => {
    const key = JSON.stringify(list);
    return shared.get(key) ?? shared.set(key, list).get(key)!;
  };
  // The pools pace the reads; this only keeps the names being worked on few.
  await forEachBounded(toRead, MAX_IN_FLIGHT, async (name) => {
    const found = await resolveOne(name, shortcuts, users, groups, s);
    out.set(name, found && sharedList(found));
  });
  return out;
}

/** The name's groups when the listings decide both its DN and its groups. */
function fromListings(name: string, shortcuts: Shortcuts): readonly string[] | undefined {
  const userDn = shortcuts.dns.get(name);
  const listed = userDn === undefined ? undefined : shortcuts.groups?.groupsOf(name, userDn);
  return listed === 'search' ? undefined : listed;
}

/** Names resolved both ways before the shortcuts are trusted. */
const PROBES = 3;

/** What the listings decide: user DNs by name, and the groups' index (undefined: search each user's groups). */
interface Shortcuts {
  dns: ReadonlyMap<string, string>;
  groups: GroupIndex | undefined;
}

/** The groups listed once, indexed; undefined when the listing cannot stand for the login's searches or fails. */
async function listGroups(groups: ConnectionPool, s: LoginDirectorySettings): Promise<GroupIndex | undefined> {
  const listing = groupListing(s);
  if (!listing) return undefined;
  const groupattr = s.groupattr || 'cn';
  const spec = { base: s.groupdn, scope: 'sub' as const, filter: listing.filter, attributes: [groupattr, ...listing.nameAttributes, ...listing.dnAttributes], deref: s.dereference_aliases };
  try {
    const namesOf = (found: readonly LdapEntry[]) => groupNamesOf(found, groupattr, s.use_pre111_group_cn_behavior);
    return indexGroups(await listAll(groups, spec, groupattr, `groups under ${s.groupdn}`), listing, namesOf);
  } catch {
    // Whatever stops the listing (no groupdn, a limit), each user's own search meets it as the login does.
    return undefined;
  }
}

type Resolved = { kind: 'groups'; groups: readonly string[] | null } | { kind: 'failed'; error: unknown };

async function tryResolve(name: string, shortcuts: Shortcuts, users: ConnectionPool, groups: ConnectionPool, s: LoginDirectorySettings): Promise<Resolved> {
  try {
    return { kind: 'groups', groups: await resolveOne(name, shortcuts, users, groups, s) };
  } catch (error) {
    return { kind: 'failed', error };
  }
}

function sameResult(a: Resolved, b: Resolved): boolean {
  if (a.kind !== 'groups' || b.kind !== 'groups') return false;
  return JSON.stringify(a.groups && [...a.groups].sort()) === JSON.stringify(b.groups && [...b.groups].sort());
}

/** The login's steps 4, the entry DN and 7 for one name; null where the login would fail. */
async function resolveOne(name: string, shortcuts: Shortcuts, users: ConnectionPool, groups: ConnectionPool, s: LoginDirectorySettings): Promise<readonly string[] | null> {
  try {
    const userDn = shortcuts.dns.get(name) ?? (await users.use((c) => bindDnThenEntryDn(c.client, s, name)));
    const listed = shortcuts.groups?.groupsOf(name, userDn);
    if (listed && listed !== 'search') return listed;
    return (await groups.use((c) => ldapGroupsOf(c.client, s, userDn, name), s.max_page_size > 0)).groups;
  } catch (err) {
    if (err instanceof LoginStepError) return null;
    throw err;
  }
}

async function bindDnThenEntryDn(client: Client, s: LoginDirectorySettings, name: string): Promise<string> {
  const bindDn = searchesForUser(s) ? await searchedBindDn(client, s, name) : derivedBindDn(s, name);
  return userEntryDn(client, s, name, bindDn);
}
