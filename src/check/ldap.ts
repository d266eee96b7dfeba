/**
 * `lockstep check` for an LdapAuth config: for each URL separately, read the certificate chain
 * a TLS URL presents (ldap-chain.ts), connect with its TLS settings, bind as binddn (anonymously without one), confirm userdn and groupdn exist and,
 * given a user, show which entry the user filter finds and which groups the group filter
 * gives. No user password is needed. Findings never carry bindpass or key material.
 */
import type { Client } from 'ldapts';
import {
  connectOne,
  DEFAULT_GROUP_FILTER,
  DEFAULT_USER_FILTER,
  describeError,
  groupNamesOf,
  isNoSuchObject,
  renderFilterTemplate,
  searchEntries,
  splitUrls,
  type LdapConnection,
  type LdapTimeouts,
  type LoginDirectorySettings,
} from '../adapters/ldap/index.js';
import { collectSecretTexts, scrub, Secret } from '../core/secret.js';
import { chainFindings, type ChainFinding } from './ldap-chain.js';

export interface Finding {
  ok: boolean;
  /** Passes, but needs someone's attention (a certificate ending soon). */
  warning?: true;
  subject: string;
  message: string;
}

/** The login's own directory fields (one list: adapters/ldap/login-directory.ts), plus the connection's. */
export interface LdapCheckConfig
  extends Pick<
    LoginDirectorySettings,
    'binddn' | 'userdn' | 'userattr' | 'userfilter' | 'upndomain' | 'groupdn' | 'groupfilter' | 'groupattr' | 'dereference_aliases' | 'max_page_size' | 'discoverdn' | 'anonymous_group_search'
  > {
  url: string;
  bindpass?: Secret | string;
  starttls: boolean;
  insecure_tls: boolean;
  certificate: string;
  client_tls_cert?: Secret | string;
  client_tls_key?: Secret | string;
  tls_min_version: string;
  tls_max_version: string;
  /** seconds */
  connection_timeout: number;
  /** seconds */
  request_timeout: number;
  /** Absent from a manifest that does not set it: the service's default for a new config, false. */
  use_pre111_group_cn_behavior?: boolean;
}

export interface LdapCheckOptions {
  user?: string;
  /** The clock the presented certificates are judged by. */
  now: Date;
}

export async function checkLdapConfig(cfg: LdapCheckConfig, opts: LdapCheckOptions): Promise<Finding[]> {
  const secrets = secretTexts(cfg);
  const findings: Finding[] = [];
  const urls = splitUrls(cfg.url);
  if (urls.length === 0) return [{ ok: false, subject: 'ldap', message: 'no LDAP server URL configured' }];
  for (const url of urls) {
    const report = (ok: boolean, message: string, warning?: true) =>
      findings.push({ ok, ...(warning ? { warning } : {}), subject: url, message: scrub(message, secrets) });
    await checkOneUrl(url, cfg, opts, report);
  }
  return findings;
}

type Report = (ok: boolean, message: string, warning?: true) => void;

async function checkOneUrl(url: string, cfg: LdapCheckConfig, opts: LdapCheckOptions, report: Report): Promise<void> {
  const timeouts = { connectMs: cfg.connection_timeout * 1000, requestMs: cfg.request_timeout * 1000 };
  // Read apart from the real connection, unverified: a chain the real one refuses is still shown.
  const chain = await presentedChain(url, cfg, timeouts, opts.now);
  const reportChain = () => chain.forEach((f) => report(f.ok, f.message, f.warning));
  let conn: LdapConnection;
  try {
    conn = await connectOne(url, tlsSettingsOf(cfg), timeouts);
  } catch (err) {
    report(false, `cannot connect: ${describeError(err)}`);
    reportChain();
    return;
  }
  try {
    report(true, conn.tlsProtocol ? `connected (${conn.tlsProtocol})` : 'connected (no TLS)');
    reportChain();
    const as = cfg.binddn ? `bind as ${cfg.binddn}` : 'anonymous bind';
    try {
      await conn.client.bind(cfg.binddn, reveal(cfg.bindpass));
      report(true, `${as} succeeded`);
    } catch (err) {
      report(false, `${as} failed: ${describeError(err)}`);
      return;
    }
    await checkBase(conn.client, 'userdn', cfg.userdn, cfg, report);
    await checkBase(conn.client, 'groupdn', cfg.groupdn, cfg, report);
    if (opts.user !== undefined) await checkUser(conn.client, cfg, opts.user, report);
  } catch (err) {
    report(false, `check failed: ${describeError(err)}`);
  } finally {
    await conn.close();
  }
}

async function checkBase(client: Client, field: 'userdn' | 'groupdn', dn: string, cfg: LdapCheckConfig, report: Report) {
  if (!dn) {
    if (field === 'groupdn') report(true, 'groupdn is not set: logins get no LDAP groups');
    else if (cfg.upndomain) report(true, `userdn is not set: logins bind as <user>@${cfg.upndomain}`);
    else report(false, 'userdn is not set: users cannot be found');
    return;
  }
  try {
    await searchEntries(client, { base: dn, scope: 'base', attributes: ['1.1'], deref: cfg.dereference_aliases });
    report(true, `${field} ${dn} exists`);
  } catch (err) {
    report(false, isNoSuchObject(err) ? `${field} ${dn} does not exist` : `${field} ${dn}: ${describeError(err)}`);
  }
}

/** The entry the user filter finds for `user`, then the groups the group filter gives. */
async function checkUser(client: Client, cfg: LdapCheckConfig, user: string, report: Report) {
  const values = cfg.upndomain
    ? { UserAttr: 'userPrincipalName', Username: `${user}@${cfg.upndomain}` }
    : { UserAttr: cfg.userattr, Username: user };
  let filter: string;
  try {
    filter = renderFilterTemplate(cfg.userfilter || DEFAULT_USER_FILTER, values);
  } catch (err) {
    report(false, `invalid userfilter: ${describeError(err)}`);
    return;
  }
  const entries = await searchEntries(client, { base: cfg.userdn, filter, attributes: ['1.1'], deref: cfg.dereference_aliases });
  if (entries.length !== 1) {
    const found = entries.length === 0 ? 'no entry' : `${entries.length} entries (${entries.map((e) => e.dn).join('; ')})`;
    report(false, `user ${user}: ${filter} under ${cfg.userdn || '(root)'} matches ${found}; exactly one is needed`);
    return;
  }
  const userDn = entries[0]!.dn; // exactly one, checked above
  report(true, `user ${user} is ${userDn}`);
  if (!cfg.groupdn) return;
  if (cfg.anonymous_group_search) await client.bind('', '');
  const groupattr = cfg.groupattr || 'cn';
  let groups: string[];
  try {
    const groupFilter = renderFilterTemplate(cfg.groupfilter || DEFAULT_GROUP_FILTER, { UserDN: userDn, Username: user });
    const found = await searchEntries(client, {
      base: cfg.groupdn,
      filter: groupFilter,
      attributes: [groupattr],
      deref: cfg.dereference_aliases,
      pageSize: cfg.max_page_size,
    });
    groups = groupNamesOf(found, groupattr, cfg.use_pre111_group_cn_behavior === true);
  } catch (err) {
    report(false, `groups of ${user}: ${describeError(err)}`);
    return;
  }
  report(true, groups.length ? `groups of ${user}: ${groups.join(', ')}` : `user ${user} has no LDAP groups`);
}

/**
 * What a TLS URL presents, judged: nothing for a plain URL, or when the unverified connection
 * fails too (the real one then says why).
 */
async function presentedChain(url: string, cfg: LdapCheckConfig, timeouts: LdapTimeouts, now: Date): Promise<ChainFinding[]> {
  let probe: LdapConnection;
  try {
    probe = await connectOne(url, { ...tlsSettingsOf(cfg), insecureTls: true }, timeouts);
  } catch {
    return [];
  }
  try {
    const chain = probe.presented();
    return chain ? chainFindings(chain, { certificateConfigured: cfg.certificate !== '', insecureTls: cfg.insecure_tls, now }) : [];
  } finally {
    await probe.close();
  }
}

function tlsSettingsOf(cfg: LdapCheckConfig) {
  return {
    starttls: cfg.starttls,
    insecureTls: cfg.insecure_tls,
    caCert: cfg.certificate,
    clientCert: reveal(cfg.client_tls_cert),
    clientKey: reveal(cfg.client_tls_key),
    minVersion: cfg.tls_min_version,
    maxVersion: cfg.tls_max_version,
  };
}

function reveal(value: Secret | string | undefined): string {
  return value instanceof Secret ? value.reveal() : (value ?? '');
}

/** Everything that must never appear in a finding, whether given as Secret or as text. */
function secretTexts(cfg: LdapCheckConfig): Set<string> {
  const texts = collectSecretTexts(cfg);
  for (const v of [cfg.bindpass, cfg.client_tls_key, cfg.client_tls_cert]) {
    const text = reveal(v);
    if (text) texts.add(text);
  }
  return texts;
}
