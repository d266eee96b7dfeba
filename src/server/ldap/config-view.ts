import type { JsonObject } from '../util/json.js';
import { LDAP_WRITE_ONLY_FIELDS, type LdapConfig } from './config.js';

const USERFILTER_WARNING =
  'userfilter configured does not consider userattr and may result in colliding entity aliases on logins';

/**
 * The config read (path_config.go pathConfigRead: PasswordlessMap, PopulateTokenData and the
 * rotation fields): every field but the write-only ones. The deprecated `policies` is taken on
 * write (the spec) but, as in the service, not read back: token_policies carries it.
 */
export function configView(cfg: LdapConfig): JsonObject {
  const view: Record<string, unknown> = { ...cfg };
  delete view.policies;
  for (const field of LDAP_WRITE_ONLY_FIELDS) delete view[field];
  return view as JsonObject;
}

/**
 * Warnings carried by every write and read of the config: a userfilter that uses neither
 * `{{.UserAttr}}` nor the literal userattr may map two users to one entity alias.
 */
export function configWarnings(cfg: LdapConfig): string[] {
  if (cfg.userfilter === '') return [];
  if (cfg.userfilter.includes('{{.UserAttr}}') || cfg.userfilter.includes(cfg.userattr)) return [];
  return [USERFILTER_WARNING];
}
