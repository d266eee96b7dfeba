import { groupNameOf, parseDn } from './dn.js';
import type { LdapEntry } from './search.js';

/**
 * The LDAP group names of the entries a group search found, as sdk/helper/ldaputil/client.go
 * GetLdapGroups derives them: an entry whose DN does not parse is skipped; each groupattr value
 * gives a name (groupNameOf); an entry without the attribute gives the name of its own DN.
 * The attribute is matched by the exact name the server answered with, as go-ldap's
 * Entry.GetAttributeValues does. Duplicates once, in the order found.
 */
export function groupNamesOf(entries: readonly LdapEntry[], groupattr: string, pre111: boolean): string[] {
  const names = new Set<string>();
  for (const entry of entries) {
    const rdns = parseDn(entry.dn);
    if (!rdns || rdns.length === 0) continue;
    const values = Object.hasOwn(entry.attributes, groupattr) ? entry.attributes[groupattr]! : [];
    if (values.length === 0) names.add(groupNameOf(entry.dn, pre111));
    for (const value of values) names.add(groupNameOf(value, pre111));
  }
  return [...names];
}
