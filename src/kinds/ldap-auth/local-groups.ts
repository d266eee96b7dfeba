import type { Diagnostics } from '../../core/diagnostics.js';
import type { DesiredState, LiveState } from '../../core/resource.js';
import { didYouMean } from '../../core/suggest.js';
import type { ResolvedDocument } from '../../load/document.js';
import { reportAt } from '../report.js';
import { LDAP_RESOURCE_TYPES, ldapMountAddresses } from './addresses.js';
import { groupByMount } from './mounts.js';
import { asLdapDocuments, type LdapAuthDocument } from './types.js';
import { goTrimSpace } from '../../values/index.js';
import { canonicalName, listItems } from './values.js';

/**
 * A user's `groups` name local groups of its mount (`auth/<mount>/groups/<name>`): at login
 * their policies are granted. A name that no manifest declares and the server does not hold
 * (or holds only until a prune deletes it) grants nothing: a typo, or a group forgotten. Each
 * is a warning at the item that names it, with the nearest defined name. LDAP directory
 * groups need no local group, so this stays a warning.
 */
export function warnUndefinedLocalGroups(docs: ReadonlyArray<ResolvedDocument>, desired: DesiredState, live: LiveState, diags: Diagnostics): void {
  const pruned = desired.collections.filter((c) => c.prune && c.memberType === LDAP_RESOURCE_TYPES.group).map((c) => c.address);
  const defined = [
    ...desired.resources.filter((r) => r.resourceType === LDAP_RESOURCE_TYPES.group).map((r) => r.address),
    ...live.resources.filter((r) => r.resourceType === LDAP_RESOURCE_TYPES.group && !pruned.some((c) => r.address.isWithin(c))).map((r) => r.address),
  ];
  for (const mount of groupByMount(asLdapDocuments(docs))) {
    const addresses = ldapMountAddresses(mount.cluster, mount.namespace, mount.mount);
    const collection = addresses.groups;
    // Without a managed config the server's setting decides the names' case (name-case.ts).
    const liveConfig = mount.configDoc ? undefined : live.resources.find((r) => r.resourceType === LDAP_RESOURCE_TYPES.config && r.address.equals(addresses.config));
    const caseSensitive = mount.configDoc ? mount.caseSensitiveNames : liveConfig?.attrs['case_sensitive_names'] === true;
    // A mount this run did not read (its cluster left out) has no live state to tell.
    if (!desired.collections.some((c) => c.address.equals(collection))) continue;
    const names = new Set(defined.filter((a) => a.isWithin(collection) && a.segments.length === collection.segments.length + 1).map((a) => a.segments.at(-1)!));
    // Thousands of users name the same groups: each name's canonical form found once.
    const canonicalOf = new Map<string, string>();
    for (const doc of mount.docs) {
      forEachGroupReference(doc, (name, user, item) => {
        let canonical = canonicalOf.get(name);
        if (canonical === undefined) canonicalOf.set(name, (canonical = canonicalName(name, caseSensitive)));
        if (names.has(canonical)) return;
        const message = `group "${name}" is declared by no manifest and is not on the server (${collection}): it grants nothing${didYouMean(canonical, names)}`;
        reportAt(diags, doc, item === undefined ? ['users', user, 'groups'] : ['users', user, 'groups', item], message, 'warning');
      });
    }
  }
}

/**
 * Each group name a user lists, with the user and the index of the item (a list; none for a
 * comma-separated text), from which the caller makes the place when it reports one: a manifest
 * of 10,000 users names 20,000 groups, and only the undefined ones are reported.
 */
function forEachGroupReference(doc: LdapAuthDocument, visit: (name: string, user: string, item: number | undefined) => void): void {
  const users = doc.data.users ?? {};
  for (const user of Object.keys(users)) {
    const groups = users[user]?.groups;
    if (!Array.isArray(groups)) {
      for (const name of listItems(groups) ?? []) if (name !== '') visit(name, user, undefined);
      continue;
    }
    for (let i = 0; i < groups.length; i++) {
      const item: unknown = groups[i];
      // One name, the common item: what listItems([item]) gives, without its two arrays.
      if (typeof item === 'string' && !item.includes(',')) {
        const name = goTrimSpace(item);
        if (name !== '') visit(name, user, i);
      } else {
        for (const name of listItems([item]) ?? []) if (name !== '') visit(name, user, i);
      }
    }
  }
}
