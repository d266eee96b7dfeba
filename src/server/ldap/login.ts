/**
 * The LDAP part of `POST auth/<mount>/login/:username` (steps 2-7 and 9 of the behaviour
 * reference; the caller does the CIDR check, the policies and the token).
 */
import type { Client } from 'ldapts';
import {
  attributeValues,
  connectFirst,
  describeError,
  ldapGroupsOf,
  LoginStepError,
  searchEntries,
  userBindDn,
  userEntryDn,
  type LdapConnection,
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
    if (err instanceof LoginStepError && err.fixed) return failure(err.message);
    const message = err instanceof LoginStepError ? err.message : `ldap operation failed: ${describeError(err)}`;
    return failure(withoutSecrets(message, cfg, password));
  } finally {
    await conn.close();
  }
}

async function authenticate(client: Client, cfg: LdapConfig, username: string, password: string): Promise<LdapLoginOutcome> {
  const bindDn = await userBindDn(client, cfg, username).catch(() => {
    throw new LoginStepError(USER_BIND_FAILED);
  });
  // The actual authentication. An empty password makes this an unauthenticated bind, which
  // servers refuse unless configured otherwise (that is what deny_null_bind guards against).
  await client.bind(bindDn, password).catch(() => {
    throw new LoginStepError(USER_BIND_FAILED);
  });
  // Searches run as binddn, not as the user logging in.
  if (cfg.binddn && cfg.bindpass) {
    await client.bind(cfg.binddn, cfg.bindpass).catch(() => {
      throw new LoginStepError('ldap operation failed: failed to re-bind with the BindDN user');
    });
  }
  const userDn = await userEntryDn(client, cfg, username, bindDn);
  const aliasValue = cfg.username_as_alias ? '' : await userAttribute(client, cfg, userDn);

  if (cfg.anonymous_group_search) await client.bind('', '');
  const { groups, warnings } = await ldapGroupsOf(client, cfg, userDn, username);

  const alias = cfg.username_as_alias ? canonicalName(cfg, username) : aliasValue;
  if (!alias) throw new LoginStepError(MISSING_ALIAS);
  return { ok: true, userDn, alias, ldapGroups: groups, warnings };
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
  if (entries.length !== 1 || !only) throw new LoginStepError('ldap operation failed: LDAP search for user attributes was 0 or not unique');
  return attributeValues(only, cfg.userattr)[0] ?? '';
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
