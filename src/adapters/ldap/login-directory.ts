/**
 * The directory side of an LDAP login, as the service computes it (sdk/helper/ldaputil/
 * client.go GetUserBindDN, GetUserDN, GetLdapGroups; builtin/credential/ldap/backend.go Login):
 * the DN a user binds as, the DN of the user's entry and the user's LDAP group names. One
 * module for the emulator's login and for the access review of a plan, so the two cannot
 * compute different things. The caller opens the connection and does the binds.
 */
import type { Client } from 'ldapts';
import { escapeDnValue } from './dn.js';
import { describeError, isNoSuchObject } from './errors.js';
import { groupNamesOf } from './groups.js';
import { searchEntries, type LdapEntry } from './search.js';
import { DEFAULT_GROUP_FILTER, DEFAULT_USER_FILTER, renderFilterTemplate } from './template.js';

/** The config fields the directory side of a login reads (the service's names and forms). */
export interface LoginDirectorySettings {
  binddn: string;
  bindpass: string;
  discoverdn: boolean;
  userdn: string;
  userattr: string;
  userfilter: string;
  upndomain: string;
  groupdn: string;
  groupfilter: string;
  groupattr: string;
  use_token_groups: boolean;
  use_pre111_group_cn_behavior: boolean;
  anonymous_group_search: boolean;
  dereference_aliases: string;
  max_page_size: number;
}

/**
 * A step of the login that fails with this message. `fixed`: the text is ours, it quotes no
 * server (the login answers it as it is; otherwise secrets are scrubbed from it first).
 */
export class LoginStepError extends Error {
  constructor(
    message: string,
    readonly fixed = true,
  ) {
    super(message);
    this.name = 'LoginStepError';
  }
}

/** The login finds the user by a search (as binddn, or anonymously) rather than deriving its DN. */
export function searchesForUser(s: Pick<LoginDirectorySettings, 'discoverdn' | 'binddn' | 'bindpass'>): boolean {
  return s.discoverdn || (s.binddn !== '' && s.bindpass !== '');
}

/** userfilter's values: UserAttr and Username, or userPrincipalName and user@upndomain. */
export function userFilterValues(s: Pick<LoginDirectorySettings, 'upndomain' | 'userattr'>, username: string): Record<string, string> {
  return s.upndomain ? { UserAttr: 'userPrincipalName', Username: `${username}@${s.upndomain}` } : { UserAttr: s.userattr, Username: username };
}

/**
 * GetUserBindDN: the DN (or UPN) to bind as. In search mode this binds as binddn (anonymously
 * without a bindpass) and searches userdn with the userfilter: exactly one entry must match.
 * Throws on any failure (the login answers them all as one failed user bind).
 */
export async function userBindDn(client: Client, s: LoginDirectorySettings, username: string): Promise<string> {
  if (!searchesForUser(s)) return derivedBindDn(s, username);
  await client.bind(s.binddn, s.bindpass);
  return searchedBindDn(client, s, username);
}

/**
 * The search of GetUserBindDN's search mode, on a connection already bound as binddn: a
 * LoginStepError when no entry or several match, the search's own error otherwise.
 */
export async function searchedBindDn(client: Client, s: LoginDirectorySettings, username: string): Promise<string> {
  const filter = renderFilterTemplate(s.userfilter || DEFAULT_USER_FILTER, userFilterValues(s, username));
  const entries = await searchEntries(client, { base: s.userdn, filter, attributes: ['1.1'], deref: s.dereference_aliases });
  const [only] = entries;
  if (entries.length !== 1 || !only) throw new LoginStepError('LDAP search for binddn 0 or not unique');
  return only.dn;
}

/** GetUserBindDN without a search: `user@upndomain`, or `<userattr>=<user>,<userdn>`. */
export function derivedBindDn(s: LoginDirectorySettings, username: string): string {
  if (s.upndomain) return `${escapeDnValue(username)}@${s.upndomain}`;
  if (!s.userdn) throw new LoginStepError('cannot derive the user bind DN from the configuration');
  return `${s.userattr}=${escapeDnValue(username)},${s.userdn}`;
}

/** GetUserDN: the bind DN, except after a UPN bind, where the entry is searched for. */
export async function userEntryDn(client: Client, s: LoginDirectorySettings, username: string, bindDn: string): Promise<string> {
  if (!s.upndomain) return bindDn;
  const entries = await searchEntries(client, {
    base: s.userdn,
    filter: renderFilterTemplate('(userPrincipalName={{.Upn}})', { Upn: `${username}@${s.upndomain}` }),
    attributes: ['1.1'],
    deref: s.dereference_aliases,
  });
  const [only] = entries;
  if (entries.length !== 1 || !only) throw new LoginStepError('ldap operation failed: LDAP search for user 0 or not unique');
  return only.dn;
}

export interface LdapGroupsFound {
  groups: string[];
  /** For the login's answer: the groupdn missing, or no group found. */
  warnings: string[];
}

/**
 * GetLdapGroups: the group names of the entries the group filter finds under groupdn (or,
 * with use_token_groups, of the user's tokenGroups SIDs), as groupNamesOf derives them.
 */
export async function ldapGroupsOf(client: Client, s: LoginDirectorySettings, userDn: string, username: string): Promise<LdapGroupsFound> {
  const warnings: string[] = [];
  const noGroups = `no LDAP groups found in groupDN '${s.groupdn}'; only policies from locally-defined groups available`;
  const groupattr = s.groupattr || 'cn';
  let entries: LdapEntry[];
  if (s.use_token_groups) {
    entries = await tokenGroupEntries(client, userDn);
  } else {
    if (!s.groupdn) return { groups: [], warnings: [noGroups] };
    const filter = renderFilterTemplate(s.groupfilter || DEFAULT_GROUP_FILTER, { UserDN: userDn, Username: username });
    try {
      entries = await searchEntries(client, { base: s.groupdn, filter, attributes: [groupattr], deref: s.dereference_aliases, pageSize: s.max_page_size });
    } catch (err) {
      // A groupdn that does not exist is a warning, not a failed login.
      if (!isNoSuchObject(err)) {
        throw new LoginStepError(`ldap operation failed: LDAP search failed (baseDN: "${s.groupdn}" / filter: "${filter}"): ${describeError(err)}`, false);
      }
      warnings.push(`group search: ${describeError(err)}`);
      entries = [];
    }
  }
  const groups = groupNamesOf(entries, groupattr, s.use_pre111_group_cn_behavior);
  if (groups.length === 0) warnings.push(noGroups);
  return { groups, warnings };
}

/**
 * performLdapTokenGroupsSearch: the user's tokenGroups (Active Directory's binary SIDs), each
 * looked up as `<SID=S-1-...>`; a SID that does not read or find is skipped, as there.
 */
async function tokenGroupEntries(client: Client, userDn: string): Promise<LdapEntry[]> {
  const { searchEntries: found } = await client.search(userDn, {
    scope: 'base',
    filter: '(objectClass=*)',
    attributes: ['tokenGroups'],
    explicitBufferAttributes: ['tokenGroups'],
    sizeLimit: 1,
  });
  const raw = found[0]?.['tokenGroups'];
  const sids = (Array.isArray(raw) ? raw : raw === undefined ? [] : [raw]).filter((v): v is Buffer => Buffer.isBuffer(v));
  const groups: LdapEntry[] = [];
  for (const bytes of sids) {
    const sid = sidText(bytes);
    if (sid === undefined) continue;
    const entry = await searchEntries(client, { base: `<SID=${sid}>`, scope: 'base', attributes: ['1.1'] }).catch(() => []);
    if (entry[0]) groups.push(entry[0]);
  }
  return groups;
}

/** ldaputil sidBytesToString: `S-<revision>-<authority>-<sub>-...`; undefined when too short. */
export function sidText(bytes: Buffer): string | undefined {
  if (bytes.length < 8) return undefined;
  const revision = bytes.readUInt8(0);
  const count = bytes.readUInt8(1);
  if (bytes.length < 8 + 4 * count) return undefined;
  const authority = bytes.readUIntBE(2, 6);
  const subs = Array.from({ length: count }, (_, i) => bytes.readUInt32LE(8 + 4 * i));
  return [`S-${revision}-${authority}`, ...subs].join('-');
}
