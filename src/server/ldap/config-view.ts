import type { JsonObject } from '../util/json.js';
import { LDAP_WRITE_ONLY_FIELDS, type LdapConfig } from './config.js';

export const USERFILTER_WARNING =
  'userfilter configured does not consider userattr and may result in colliding entity aliases on logins';

/** The config read: every field but the write-only ones; `policies` mirrors token_policies. */
export function configView(cfg: LdapConfig): JsonObject {
  const view: Record<string, unknown> = { ...cfg, policies: cfg.token_policies };
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
