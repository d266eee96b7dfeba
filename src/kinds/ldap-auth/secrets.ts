import type { ValuePath } from '../../load/document.js';
import { LDAP_SECRET_FIELDS } from './schema-fields.js';

/**
 * Paths of the secret fields present in a raw LdapAuth document: config.bindpass and
 * config.client_tls_key. (client_tls_cert is write-only but a certificate, not a secret.)
 */
export function ldapSecretPaths(value: unknown): ValuePath[] {
  const config = (value as { config?: unknown } | null)?.config;
  if (config === null || typeof config !== 'object' || Array.isArray(config)) return [];
  return LDAP_SECRET_FIELDS.filter((f) => f in config).map((f) => ['config', f]);
}
