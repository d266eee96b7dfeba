import type { LdapConfig } from './config.js';
import { goToLower } from '../../values/index.js';
import { sortedUnique } from '../util/lists.js';

/** The name used for policy matching and local-user lookup (step 8 of the login). */
export function canonicalName(cfg: Pick<LdapConfig, 'case_sensitive_names'>, username: string): string {
  return cfg.case_sensitive_names ? username : goToLower(username);
}

export const ROOT_REFUSED = 'auth methods cannot create root tokens';

/**
 * Policies of a successful LDAP login: the mapped ones (below), then `token_policies` and
 * `default` (unless token_no_default_policy), as the core sanitises them for the token.
 * `localUser` must be the local user stored under `canonicalName(cfg, username)`.
 */
export function loginPolicies(
  cfg: LdapConfig,
  username: string,
  ldapGroups: string[],
  localUser: LocalMapping | undefined,
  localGroupPolicies: (name: string) => string[] | undefined,
): { policies: string[]; canonicalName: string } | { error: string } {
  const collected = [...mappedPolicies(cfg, ldapGroups, localUser, localGroupPolicies), ...configuredPolicies(cfg)];
  if (!cfg.token_no_default_policy) collected.push('default');
  const policies = sortedUnique(collected, true);
  if (policies.includes('root')) return { error: ROOT_REFUSED };
  return { policies, canonicalName: canonicalName(cfg, username) };
}

/** A local user's own policies and local groups. */
export interface LocalMapping {
  policies: string[];
  groups: string[];
}

/**
 * What backend.go Login maps a login to: the local user's groups plus the LDAP groups select
 * local groups (lower-cased unless case-sensitive), whose policies come first, then the local
 * user's own; strutil.RemoveDuplicates(policies, true) trims, lower-cases, sorts.
 */
export function mappedPolicies(
  cfg: LdapConfig,
  ldapGroups: string[],
  localUser: LocalMapping | undefined,
  localGroupPolicies: (name: string) => string[] | undefined,
): string[] {
  const caseSensitive = cfg.case_sensitive_names;
  const groupNames = [...(localUser?.groups ?? []), ...ldapGroups].map((g) => (caseSensitive ? g : goToLower(g)));
  const collected: string[] = [];
  for (const name of groupNames) collected.push(...(localGroupPolicies(name) ?? []));
  collected.push(...(localUser?.policies ?? []));
  return sortedUnique(collected, true);
}

/** The config's token_policies as stored (case kept); `policies` is its deprecated spelling, the same list. */
export function configuredPolicies(cfg: LdapConfig): string[] {
  return [...cfg.token_policies, ...(cfg.policies ?? [])];
}
