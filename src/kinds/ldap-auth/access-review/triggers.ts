import { Address } from '../../../core/address.js';
import type { Change } from '../../../core/plan.js';
import { LDAP_RESOURCE_TYPES } from '../addresses.js';

/**
 * The config fields that decide which policies a directory user's login gets, read from the
 * login path (builtin/credential/ldap/backend.go Login, path_login.go; sdk/helper/ldaputil/
 * client.go): who is found (userdn, userattr, userfilter, upndomain, discoverdn, binddn,
 * dereference_aliases, deny_null_bind), which groups (groupdn, groupfilter, groupattr,
 * use_token_groups, anonymous_group_search, use_pre111_group_cn_behavior), how names match
 * (case_sensitive_names) and what every login gets (token_policies, its old spelling
 * policies, token_no_default_policy). Connection fields (url, TLS) are not among them: they
 * decide whether the directory answers, not what.
 */
export const LOGIN_DECIDING_FIELDS: ReadonlySet<string> = new Set([
  'userdn',
  'userattr',
  'userfilter',
  'upndomain',
  'discoverdn',
  'binddn',
  'dereference_aliases',
  'deny_null_bind',
  'groupdn',
  'groupfilter',
  'groupattr',
  'use_token_groups',
  'anonymous_group_search',
  'use_pre111_group_cn_behavior',
  'case_sensitive_names',
  'token_policies',
  'policies',
  'token_no_default_policy',
]);

/**
 * The LDAP methods (`east:auth/ldap`) whose logins the changes may change: a group's or a
 * user's mapping created, changed or deleted, or a deciding config field changed (a method
 * enabled comes with its config and mappings, so it is reviewed through them).
 */
export function methodsToReview(changes: readonly Change[]): Address[] {
  const methods = new Map<string, Address>();
  // Keyed by the method's text, made an Address once per method, not once per change (an
  // apply of 10,000 users changes 10,000).
  const add = (a: Address, up: number): void => {
    const segments = a.segments.slice(0, -up);
    const key = `${a.cluster}:${segments.join('/')}`;
    if (!methods.has(key)) methods.set(key, new Address(a.cluster, segments));
  };
  for (const c of changes) {
    switch (c.resourceType) {
      case LDAP_RESOURCE_TYPES.group:
      case LDAP_RESOURCE_TYPES.user:
        add(c.address, 2);
        break;
      case LDAP_RESOURCE_TYPES.config:
        if (c.changedFields.some((f) => LOGIN_DECIDING_FIELDS.has(f))) add(c.address, 1);
        break;
      default:
        break;
    }
  }
  return [...methods.values()].sort(Address.compare);
}

/** The key under which a method's directory reads are started ahead of its review (read-ahead.ts), and taken (review.ts). */
export function aheadKey(method: Address): string {
  return `ldap-directory ${method.toString()}`;
}
