import type { Diagnostics } from '../../core/diagnostics.js';
import { isSecret } from '../../core/secret.js';
import { reportAt } from './report.js';
import { TLS_VERSIONS } from './schema-fields.js';
import { urlSchemes } from './syntax.js';
import type { LdapAuthDocument } from './types.js';
import { boolOf, durationSeconds } from '../../values/index.js';

/** Rules between fields of one config block (effective values: the spec's defaults filled in). */
export function checkConfigConsistency(doc: LdapAuthDocument, diags: Diagnostics): void {
  const config = doc.data.config;
  if (!config) return;
  checkTlsRange(doc, config, diags);
  checkUserFilter(doc, config, diags);
  checkDeprecatedPolicies(doc, config, diags);
  checkClientCertificatePair(doc, config, diags);
  checkStartTls(doc, config, diags);
  checkRotationTiming(doc, config, diags);
}

/**
 * The root credential's rotation runs on a schedule or a period, never both, and a window only
 * bounds a scheduled one: the service refuses a write that sets both (automatedrotationutil
 * ParseAutomatedRotationFields), and lockstep writes every field it manages.
 */
function checkRotationTiming(doc: LdapAuthDocument, config: Record<string, unknown>, diags: Diagnostics): void {
  const period = durationSeconds(config.rotation_period) ?? 0;
  if (period === 0) return;
  if (typeof config.rotation_schedule === 'string' && config.rotation_schedule !== '') {
    reportAt(diags, doc, ['config', 'rotation_period'], 'rotation_schedule and rotation_period are mutually exclusive: give one of them');
  }
  if ((durationSeconds(config.rotation_window) ?? 0) !== 0) {
    reportAt(diags, doc, ['config', 'rotation_window'], 'rotation_window does not apply to rotation_period: it bounds a rotation_schedule');
  }
}

/** tls_min_version must not be above tls_max_version (both default to tls12). */
function checkTlsRange(doc: LdapAuthDocument, config: Record<string, unknown>, diags: Diagnostics): void {
  const rank = (v: unknown): number => TLS_VERSIONS.indexOf(v as (typeof TLS_VERSIONS)[number]);
  const min = config.tls_min_version ?? 'tls12';
  const max = config.tls_max_version ?? 'tls12';
  if (rank(min) < 0 || rank(max) < 0 || rank(min) <= rank(max)) return;
  const describe = (field: string, v: unknown) => (config[field] === undefined ? `${String(v)} (the default)` : String(v));
  const field = config.tls_min_version !== undefined ? 'tls_min_version' : 'tls_max_version';
  reportAt(
    diags,
    doc,
    ['config', field],
    `tls_min_version ${describe('tls_min_version', min)} is above tls_max_version ${describe('tls_max_version', max)}`,
  );
}

/** Whether `filter` fails the spec's rule for `userattr` (the service's test, path_config.go). */
export function userfilterLacksUserattr(filter: string, userattr: string): boolean {
  if (filter === '') return false;
  return !(filter.includes('{{.UserAttr}}') || filter.toLowerCase().includes(userattr.toLowerCase()));
}

/**
 * The spec's rule: a userfilter must contain {{.UserAttr}} or the userattr value, or the
 * search may match several entries and entity aliases collide. The attribute name is compared
 * case-insensitively, as LDAP does (the server lower-cases userattr). Acknowledgeable.
 */
function checkUserFilter(doc: LdapAuthDocument, config: Record<string, unknown>, diags: Diagnostics): void {
  const filter = config.userfilter;
  if (typeof filter !== 'string' || filter === '') return;
  const userattr = typeof config.userattr === 'string' && config.userattr !== '' ? config.userattr : 'cn';
  if (!userfilterLacksUserattr(filter, userattr)) return;
  const why = `must contain {{.UserAttr}} or the userattr value "${userattr}" (otherwise logins may match other entries and entity aliases may collide)`;
  if ((doc.data.acknowledge ?? []).includes('userfilter-without-userattr')) {
    reportAt(diags, doc, ['config', 'userfilter'], `${why}; accepted: acknowledged as userfilter-without-userattr`, 'warning');
  } else {
    reportAt(diags, doc, ['config', 'userfilter'], `${why}; the service accepts it with a warning: to keep it, add userfilter-without-userattr to the document's acknowledge list`);
  }
}

function checkDeprecatedPolicies(doc: LdapAuthDocument, config: Record<string, unknown>, diags: Diagnostics): void {
  if (config.policies === undefined) return;
  if (config.token_policies !== undefined) {
    reportAt(diags, doc, ['config', 'policies'], 'cannot be given with token_policies (policies is its deprecated alias)');
  } else {
    reportAt(diags, doc, ['config', 'policies'], 'is deprecated; use token_policies', 'warning');
  }
}

function checkClientCertificatePair(doc: LdapAuthDocument, config: Record<string, unknown>, diags: Diagnostics): void {
  const cert = hasText(config.client_tls_cert);
  const key = hasText(config.client_tls_key);
  if (cert && !key) reportAt(diags, doc, ['config', 'client_tls_cert'], 'requires client_tls_key');
  if (key && !cert) reportAt(diags, doc, ['config', 'client_tls_key'], 'requires client_tls_cert');
}

/** Non-empty text, looking inside a Secret without showing it. */
function hasText(value: unknown): boolean {
  return secretOrText(value) !== '';
}

/** The text of a string or Secret value ('' for anything else); never shown to anyone. */
export function secretOrText(value: unknown): string {
  if (isSecret(value)) return value.reveal();
  return typeof value === 'string' ? value : '';
}

/** StartTLS upgrades ldap:// connections; with only ldaps:// URLs it does nothing. */
function checkStartTls(doc: LdapAuthDocument, config: Record<string, unknown>, diags: Diagnostics): void {
  if (boolOf(config.starttls) !== true || typeof config.url !== 'string') return;
  if (urlSchemes(config.url).every((s) => s === 'ldaps')) {
    reportAt(diags, doc, ['config', 'starttls'], 'has no effect with ldaps:// URLs (they use TLS from the start)', 'warning');
  }
}
