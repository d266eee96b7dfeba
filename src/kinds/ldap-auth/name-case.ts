import { Address } from '../../core/address.js';
import type { DesiredState, LiveState } from '../../core/resource.js';
import { LDAP_RESOURCE_TYPES } from './addresses.js';
import { canonicalName, normaliseGroupList } from './values.js';

/**
 * The case of user and group names in a mount whose `config` no manifest manages. The server
 * lower-cases names unless the mount's `case_sensitive_names` is true (path_users.go,
 * path_groups.go), and only the live config says which: normalisation keeps such names as
 * declared, and once the live state is read they are lower-cased here unless the server is
 * case sensitive (a mount still to be enabled gets the default, false). Without this, a
 * declared `Fry` on a case-sensitive server planned a create of `fry` (and, with prune, a
 * delete of `Fry`). Inputs are not mutated.
 */
export function settleNameCase(desired: DesiredState, live: LiveState): DesiredState {
  const managedConfigs = new Set<string>();
  for (const r of desired.resources) if (r.resourceType === LDAP_RESOURCE_TYPES.config) managedConfigs.add(r.address.toString());
  const caseSensitive = new Map<string, boolean>();
  for (const r of live.resources) if (r.resourceType === LDAP_RESOURCE_TYPES.config) caseSensitive.set(r.address.toString(), r.attrs['case_sensitive_names'] === true);

  // Mount methods (`…/auth/<mount>`) whose names are lower-cased now, by the text of the method address.
  const folding = new Set<string>();
  for (const c of desired.collections) {
    if (c.memberType !== LDAP_RESOURCE_TYPES.user) continue;
    const method = new Address(c.address.cluster, c.address.segments.slice(0, -1));
    const config = method.child('config').toString();
    if (!managedConfigs.has(config) && caseSensitive.get(config) !== true) folding.add(method.toString());
  }
  // The common case (every config managed, or the servers case sensitive): nothing to do.
  if (folding.size === 0) return desired;

  /** `…/auth/<mount>/{users,groups}/<name>` with the name lower-cased, when its mount folds. */
  const methodOf = (address: Address): string => `${address.cluster}:${address.segments.slice(0, -2).join('/')}`;
  const folded = (address: Address): Address => {
    const name = address.segments.at(-1)!;
    const lower = canonicalName(name, false);
    return lower === name ? address : new Address(address.cluster, [...address.segments.slice(0, -1), lower]);
  };

  let changed = false;
  const resources = desired.resources.map((r) => {
    if (r.resourceType !== LDAP_RESOURCE_TYPES.user && r.resourceType !== LDAP_RESOURCE_TYPES.group) return r;
    if (!folding.has(methodOf(r.address))) return r;
    changed = true;
    const isUser = r.resourceType === LDAP_RESOURCE_TYPES.user;
    return {
      ...r,
      address: folded(r.address),
      attrs: isUser ? { ...r.attrs, groups: normaliseGroupList(r.attrs['groups'], false) } : r.attrs,
      // A user depends on the declared groups it lists (normalise.ts): those were folded too.
      dependsOn: isUser ? r.dependsOn.map((d) => (d.segments.at(-2) === 'groups' && folding.has(methodOf(d)) ? folded(d) : d)) : r.dependsOn,
    };
  });
  return changed ? { ...desired, resources } : desired;
}
