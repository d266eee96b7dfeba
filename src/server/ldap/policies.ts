import type { LdapConfig } from './config.js';
import { goToLower } from '../../values/index.js';

/** The name used for policy matching and local-user lookup (step 8 of the login). */
export function canonicalName(cfg: Pick<LdapConfig, 'case_sensitive_names'>, username: string): string {
  return cfg.case_sensitive_names ? username : goToLower(username);
}

export const ROOT_REFUSED = 'auth methods cannot create root tokens';

/**
 * Policies of a successful LDAP login: the local user's groups plus the LDAP groups select
 * local groups (lower-cased unless case-sensitive), whose policies come first; then the local
 * user's own policies, `token_policies` and `default` (unless token_no_default_policy).
 * `localUser` must be the local user stored under `canonicalName(cfg, username)`.
 */
export function loginPolicies(
  cfg: LdapConfig,
  username: string,
  ldapGroups: string[],
  localUser: { policies: string[]; groups: string[] } | undefined,
  localGroupPolicies: (name: string) => string[] | undefined,
): { policies: string[]; canonicalName: string } | { error: string } {
  const caseSensitive = cfg.case_sensitive_names;
  const groupNames = [...(localUser?.groups ?? []), ...ldapGroups].map((g) =>
    caseSensitive ? g : goToLower(g),
  );
  const collected: string[] = [];
  for (const name of groupNames) collected.push(...(localGroupPolicies(name) ?? []));
  collected.push(...(localUser?.policies ?? []));
  // `policies` is the deprecated spelling of token_policies; both name the same list.
  collected.push(...cfg.token_policies, ...(cfg.policies ?? []));
  if (!cfg.token_no_default_policy) collected.push('default');

  const policies = [...new Set(collected.map((p) => goToLower(p.trim())).filter((p) => p !== ''))].sort();
  if (policies.includes('root')) return { error: ROOT_REFUSED };
  return { policies, canonicalName: canonicalName(cfg, username) };
}
