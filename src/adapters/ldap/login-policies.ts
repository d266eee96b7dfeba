/**
 * The policies an LDAP login grants, from what the directory said (the user's LDAP groups) and
 * the mount's mappings, as builtin/credential/ldap/backend.go Login and path_login.go compute
 * them, with tokenutil's token_policies and the token store's `default`. Pure: the emulator's
 * login and a plan's access review both call it.
 */
import { compareBytes, goToLower } from '../../values/index.js';

/** The config fields that decide the policies once the directory has answered. */
export interface PolicySettings {
  case_sensitive_names: boolean;
  token_policies: readonly string[];
  /** The deprecated spelling of token_policies: both name the same list. */
  policies?: readonly string[];
  token_no_default_policy: boolean;
}

/** A local user of the mount (`users/<name>`). */
export interface LocalUserMapping {
  policies: readonly string[];
  groups: readonly string[];
}

export const ROOT_REFUSED = 'auth methods cannot create root tokens';

/** The name used for policy matching and local-user lookup (lower-cased unless case-sensitive). */
export function canonicalName(cfg: Pick<PolicySettings, 'case_sensitive_names'>, username: string): string {
  return cfg.case_sensitive_names ? username : goToLower(username);
}

/**
 * Policies of a successful LDAP login: the mapped ones (mappedPolicies), then `token_policies`
 * and `default` (unless token_no_default_policy), as the core sanitises them for the token:
 * trimmed, lower-cased, de-duplicated and sorted; one holding `root` is refused.
 * `localUser` must be the local user stored under `canonicalName(cfg, username)`.
 */
export function loginPolicies(
  cfg: PolicySettings,
  username: string,
  ldapGroups: readonly string[],
  localUser: LocalUserMapping | undefined,
  localGroupPolicies: (name: string) => readonly string[] | undefined,
): { policies: string[]; canonicalName: string } | { error: string } {
  const collected = [...mappedPolicies(cfg, ldapGroups, localUser, localGroupPolicies), ...configuredPolicies(cfg)];
  if (!cfg.token_no_default_policy) collected.push('default');
  const policies = sanitised(collected);
  if (policies.includes('root')) return { error: ROOT_REFUSED };
  return { policies, canonicalName: canonicalName(cfg, username) };
}

/**
 * What backend.go Login maps a login to (and what a renewal compares again, path_login.go
 * pathLoginRenew): the local user's groups plus the LDAP groups select local groups (lower-cased
 * unless case-sensitive), whose policies come first, then the local user's own;
 * strutil.RemoveDuplicates(policies, true) trims, lower-cases, sorts.
 */
export function mappedPolicies(
  cfg: Pick<PolicySettings, 'case_sensitive_names'>,
  ldapGroups: readonly string[],
  localUser: LocalUserMapping | undefined,
  localGroupPolicies: (name: string) => readonly string[] | undefined,
): string[] {
  const caseSensitive = cfg.case_sensitive_names;
  const groupNames = [...(localUser?.groups ?? []), ...ldapGroups].map((g) => (caseSensitive ? g : goToLower(g)));
  const collected: string[] = [];
  for (const name of groupNames) collected.push(...(localGroupPolicies(name) ?? []));
  collected.push(...(localUser?.policies ?? []));
  return sanitised(collected);
}

/** The config's token_policies as stored (case kept); `policies` is its deprecated spelling, the same list. */
export function configuredPolicies(cfg: Pick<PolicySettings, 'token_policies' | 'policies'>): string[] {
  return [...cfg.token_policies, ...(cfg.policies ?? [])];
}

/** strutil.RemoveDuplicates(list, true): trimmed, lower-cased, empty ones dropped, sorted as Go sorts (by bytes). */
function sanitised(list: readonly string[]): string[] {
  return [...new Set(list.map((p) => goToLower(p.trim())).filter((p) => p !== ''))].sort(compareBytes);
}
