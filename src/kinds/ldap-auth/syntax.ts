import { isIPv6 } from 'node:net';

const URL_ENTRY = /^(ldaps?):\/\/([A-Za-z0-9._-]+|\[[0-9A-Fa-f:.]+\])(?::([0-9]+))?$/i;

/**
 * Problems of an LDAP `url` value: one or more comma-separated `ldap://` or `ldaps://` URLs,
 * each a host and an optional port (1-65535) and nothing else.
 */
export function urlListProblems(text: string): string[] {
  const entries = text.split(',');
  return entries.flatMap((entry, i) => {
    const which = entries.length > 1 ? `entry ${i + 1} ` : '';
    if (entry.trim() === '') return [`${which}is empty`];
    const m = URL_ENTRY.exec(entry);
    if (!m) return [`${which}"${entry}" must be ldap:// or ldaps:// followed by a host and an optional port, nothing else`];
    const host = m[2]!;
    if (host.startsWith('[') && !isIPv6(host.slice(1, -1))) return [`${which}"${entry}" has an invalid IPv6 address`];
    const port = m[3];
    if (port !== undefined && !(Number(port) >= 1 && Number(port) <= 65535)) {
      return [`${which}"${entry}" has port ${port}; a port must be between 1 and 65535`];
    }
    return [];
  });
}

/** The schemes of an LDAP `url` value, lower-cased (for the starttls-with-ldaps warning). */
export function urlSchemes(text: string): string[] {
  return text.split(',').map((e) => e.trim().toLowerCase().split(':')[0] ?? '');
}
