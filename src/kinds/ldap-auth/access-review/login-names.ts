/**
 * The names a login can use, as the review finds them in the directory: the filter that lists
 * every entry the login's user search could find, and the names an entry found so gives.
 */
import { escapeFilter, FilterParser } from 'ldapts';
import { attributeValues, parseDn, renderFilterTemplate, searchesForUser, userFilterValues, DEFAULT_USER_FILTER, type LdapEntry, type LoginDirectorySettings } from '../../../adapters/ldap/index.js';

/**
 * The userfilter with every name: rendered with a marker for the name, the marker then made a
 * wildcard (`(uid={{.Username}})` → `(uid=*)`). A filter that does not parse so falls back to
 * the presence of the name's attribute: the per-name search decides anyway.
 */
export function enumerationFilter(s: LoginDirectorySettings): string {
  const attribute = s.upndomain ? 'userPrincipalName' : s.userattr;
  const presence = s.upndomain ? `(userPrincipalName=*@${escapeFilter`${s.upndomain}`})` : `(${attribute}=*)`;
  if (!searchesForUser(s)) return presence;
  const marker = 'lockstepaccessreviewname';
  const rendered = renderFilterTemplate(s.userfilter || DEFAULT_USER_FILTER, userFilterValues(s, marker));
  const filter = rendered.split(marker).join('*');
  try {
    FilterParser.parseString(filter);
    return filter;
  } catch {
    return presence;
  }
}

/** Each name an entry can log in with: its userattr values (upn: userPrincipalName without @upndomain); derived DNs: its RDN's value. */
export function loginNames(entries: readonly LdapEntry[], s: LoginDirectorySettings): string[] {
  const names = new Set<string>();
  const suffix = `@${s.upndomain}`.toLowerCase();
  for (const entry of entries) {
    if (s.upndomain) {
      for (const upn of attributeValues(entry, 'userPrincipalName')) {
        if (upn.toLowerCase().endsWith(suffix)) names.add(upn.slice(0, upn.length - suffix.length));
      }
    } else if (searchesForUser(s)) {
      for (const value of attributeValues(entry, s.userattr)) names.add(value);
    } else {
      const first = parseDn(entry.dn)?.[0];
      const rdn = first?.length === 1 ? first[0] : undefined;
      if (rdn && rdn.type.toLowerCase() === s.userattr.toLowerCase()) names.add(rdn.value);
    }
  }
  return [...names].sort();
}
