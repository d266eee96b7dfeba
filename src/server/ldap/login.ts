/**
 * The LDAP part of `POST auth/<mount>/login/:username` (steps 2-7 and 9 of the behaviour
 * reference; the caller does the CIDR check, the policies and the token).
 */
import type { Client } from 'ldapts';
import {
  attributeValues,
  connectFirst,
  DEFAULT_GROUP_FILTER,
  DEFAULT_USER_FILTER,
  describeError,
  escapeDnValue,
  groupNamesOf,
  isNoSuchObject,
  renderFilterTemplate,
  searchEntries,
  type LdapConnection,
  type LdapEntry,
} from '../../adapters/ldap/index.js';
import type { LdapConfig } from './config.js';
import { canonicalName } from './policies.js';

export interface LdapLoginOutcome {
  ok: true;
  userDn: string;
  alias: string;
  ldapGroups: string[];
  /** Warnings for the answer, e.g. that no LDAP group was found. */
  warnings?: string[];
}

export interface LdapLoginFailure {
  ok: false;
  status: number;
  message: string;
}

export const NULL_BIND_REFUSED = 'password cannot be of zero length when passwordless binds are being denied';
/** The one answer for every authentication failure: it never says which check failed. */
export const USER_BIND_FAILED = 'ldap operation failed: failed to bind as user';
export const MISSING_ALIAS = 'missing entity alias attribute value';

/** A failure that ends the login with this message (`fixed`: written by us, no server text). */
class LoginError extends Error {
  constructor(message: string, readonly fixed = true) {
    super(message);
  }
}

export async function ldapLogin(
  cfg: LdapConfig,
  username: string,
  password: string,
): Promise<LdapLoginOutcome | LdapLoginFailure> {
  if (cfg.deny_null_bind && password.length === 0) return failure(NULL_BIND_REFUSED);

  let conn: LdapConnection;
  try {
    conn = await connectFirst(cfg.url, tlsSettingsOf(cfg), {
      connectMs: cfg.connection_timeout * 1000,
      requestMs: cfg.request_timeout * 1000,
    });
  } catch (err) {
    return failure(withoutSecrets(`ldap operation failed: ${describeError(err)}`, cfg, password));
  }
  try {
    return await authenticate(conn.client, cfg, username, password);
  } catch (err) {
    if (err instanceof LoginError && err.fixed) return failure(err.message);
    const message = err instanceof LoginError ? err.message : `ldap operation failed: ${describeError(err)}`;
    return failure(withoutSecrets(message, cfg, password));
  } finally {
    await conn.close();
  }
}

async function authenticate(client: Client, cfg: LdapConfig, username: string, password: string): Promise<LdapLoginOutcome> {
  const bindDn = await userBindDn(client, cfg, username).catch(() => {
    throw new LoginError(USER_BIND_FAILED);
  });
  // The actual authentication. An empty password makes this an unauthenticated bind, which
  // servers refuse unless configured otherwise (that is what deny_null_bind guards against).
  await client.bind(bindDn, password).catch(() => {
    throw new LoginError(USER_BIND_FAILED);
  });
  // Searches run as binddn, not as the user logging in.
  if (cfg.binddn && cfg.bindpass) {
    await client.bind(cfg.binddn, cfg.bindpass).catch(() => {
      throw new LoginError('ldap operation failed: failed to re-bind with the BindDN user');
    });
  }
  const userDn = await userEntryDn(client, cfg, username, bindDn);
  const aliasValue = cfg.username_as_alias ? '' : await userAttribute(client, cfg, userDn);

  if (cfg.anonymous_group_search) await client.bind('', '');
  const { groups, warnings } = await ldapGroups(client, cfg, username, userDn);

  const alias = cfg.username_as_alias ? canonicalName(cfg, username) : aliasValue;
  if (!alias) throw new LoginError(MISSING_ALIAS);
  return { ok: true, userDn, alias, ldapGroups: groups, warnings };
}

/** Step 4: the DN (or UPN) to bind as. Any error here is reported as a failed user bind. */
async function userBindDn(client: Client, cfg: LdapConfig, username: string): Promise<string> {
  if (cfg.discoverdn || (cfg.binddn && cfg.bindpass)) {
    await client.bind(cfg.binddn, cfg.bindpass);
    const filter = renderFilterTemplate(cfg.userfilter || DEFAULT_USER_FILTER, userFilterValues(cfg, username));
    const entries = await searchEntries(client, {
      base: cfg.userdn,
      filter,
      attributes: ['1.1'],
      deref: cfg.dereference_aliases,
    });
    const [only] = entries;
    if (entries.length !== 1 || !only) throw new Error('LDAP search for binddn 0 or not unique');
    return only.dn;
  }
  if (cfg.upndomain) return `${escapeDnValue(username)}@${cfg.upndomain}`;
  if (!cfg.userdn) throw new Error('cannot derive the user bind DN from the configuration');
  return `${cfg.userattr}=${escapeDnValue(username)},${cfg.userdn}`;
}

function userFilterValues(cfg: LdapConfig, username: string): Record<string, string> {
  return cfg.upndomain
    ? { UserAttr: 'userPrincipalName', Username: `${username}@${cfg.upndomain}` }
    : { UserAttr: cfg.userattr, Username: username };
}

/** The user's entry: the bind DN, except after a UPN bind, where it is searched for. */
async function userEntryDn(client: Client, cfg: LdapConfig, username: string, bindDn: string): Promise<string> {
  if (!cfg.upndomain) return bindDn;
  const entries = await searchEntries(client, {
    base: cfg.userdn,
    filter: renderFilterTemplate('(userPrincipalName={{.Upn}})', { Upn: `${username}@${cfg.upndomain}` }),
    attributes: ['1.1'],
    deref: cfg.dereference_aliases,
  });
  const [only] = entries;
  if (entries.length !== 1 || !only) throw new LoginError('ldap operation failed: LDAP search for user 0 or not unique');
  return only.dn;
}

/** Step 9: the first value of userattr on the user's entry ('' when it has none). */
async function userAttribute(client: Client, cfg: LdapConfig, userDn: string): Promise<string> {
  const entries = await searchEntries(client, {
    base: userDn,
    scope: 'base',
    attributes: [cfg.userattr],
    deref: cfg.dereference_aliases,
  });
  const [only] = entries;
  if (entries.length !== 1 || !only) throw new LoginError('ldap operation failed: LDAP search for user attributes was 0 or not unique');
  return attributeValues(only, cfg.userattr)[0] ?? '';
}

/** Step 7: group names of the entries the group filter finds (adapters/ldap/groups.ts). */
async function ldapGroups(
  client: Client,
  cfg: LdapConfig,
  username: string,
  userDn: string,
): Promise<{ groups: string[]; warnings: string[] }> {
  const warnings: string[] = [];
  const noGroups = `no LDAP groups found in groupDN '${cfg.groupdn}'; only policies from locally-defined groups available`;
  if (!cfg.groupdn) return { groups: [], warnings: [noGroups] };
  const groupattr = cfg.groupattr || 'cn';
  const filter = renderFilterTemplate(cfg.groupfilter || DEFAULT_GROUP_FILTER, { UserDN: userDn, Username: username });
  let entries: LdapEntry[];
  try {
    entries = await searchEntries(client, {
      base: cfg.groupdn,
      filter,
      attributes: [groupattr],
      deref: cfg.dereference_aliases,
      pageSize: cfg.max_page_size,
    });
  } catch (err) {
    // A groupdn that does not exist is a warning, not a failed login.
    if (!isNoSuchObject(err)) {
      const reason = `LDAP search failed (baseDN: "${cfg.groupdn}" / filter: "${filter}"): ${describeError(err)}`;
      throw new LoginError(`ldap operation failed: ${reason}`, false);
    }
    warnings.push(`group search: ${describeError(err)}`);
    entries = [];
  }
  const groups = groupNamesOf(entries, groupattr, cfg.use_pre111_group_cn_behavior);
  if (groups.length === 0) warnings.push(noGroups);
  return { groups, warnings };
}

function tlsSettingsOf(cfg: LdapConfig) {
  return {
    starttls: cfg.starttls,
    insecureTls: cfg.insecure_tls,
    caCert: cfg.certificate,
    clientCert: cfg.client_tls_cert,
    clientKey: cfg.client_tls_key,
    minVersion: cfg.tls_min_version,
    maxVersion: cfg.tls_max_version,
  };
}

/** Server and socket texts never echo credentials, but a message must never carry them. */
function withoutSecrets(message: string, cfg: LdapConfig, password: string): string {
  let out = message;
  for (const secret of [password, cfg.bindpass, cfg.client_tls_key]) {
    if (secret) out = out.split(secret).join('(sensitive)');
  }
  return out;
}

function failure(message: string): LdapLoginFailure {
  return { ok: false, status: 400, message };
}
