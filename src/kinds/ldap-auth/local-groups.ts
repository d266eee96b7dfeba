import type { Diagnostics } from '../../core/diagnostics.js';
import type { DesiredState, LiveState } from '../../core/resource.js';
import { didYouMean } from '../../core/suggest.js';
import type { ResolvedDocument, ValuePath } from '../../load/document.js';
import { reportAt } from '../report.js';
import { LDAP_RESOURCE_TYPES, ldapMountAddresses } from './addresses.js';
import { groupByMount } from './mounts.js';
import { asLdapDocuments, type LdapAuthDocument } from './types.js';
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
    for (const doc of mount.docs) {
      forEachGroupReference(doc, (name, path) => {
        const canonical = canonicalName(name, caseSensitive);
        if (names.has(canonical)) return;
        const message = `group "${name}" is declared by no manifest and is not on the server (${collection}): it grants nothing${didYouMean(canonical, names)}`;
        reportAt(diags, doc, path(), message, 'warning');
      });
    }
  }
}

/**
 * Each group name a user lists, with the place of the item (a list) or of the whole text
 * (comma-separated). The place is made only when asked: a manifest of 10,000 users names 20,000
 * groups, and only the undefined ones are reported.
 */
function forEachGroupReference(doc: LdapAuthDocument, visit: (name: string, path: () => ValuePath) => void): void {
  const users = doc.data.users ?? {};
  for (const user of Object.keys(users)) {
    const groups = users[user]?.groups;
    if (Array.isArray(groups)) {
      groups.forEach((item, i) => {
        for (const name of listItems([item]) ?? []) if (name !== '') visit(name, () => ['users', user, 'groups', i]);
      });
    } else {
      for (const name of listItems(groups) ?? []) if (name !== '') visit(name, () => ['users', user, 'groups']);
    }
  }
}
