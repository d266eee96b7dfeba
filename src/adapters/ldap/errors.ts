import { NoSuchObjectError, ResultCodeError } from 'ldapts';

/**
 * One line describing an LDAP or socket error. LDAP result errors read
 * `invalid credentials (LDAP result 49)` plus the server's text when it sent one; ldapts'
 * messages never contain the bind password.
 */
export function describeError(err: unknown): string {
  if (err instanceof ResultCodeError) {
    const words = err.name.replace(/Error$/, '').replace(/([a-z])([A-Z])/g, '$1 $2').toLowerCase();
    const text = err.message.replace(/\s*Code: 0x[0-9a-f]+$/i, '').trim();
    return `${words} (LDAP result ${err.code})${text ? `: ${text}` : ''}`;
  }
  if (err instanceof Error) return err.message.split('\n', 1)[0] ?? '';
  return String(err);
}

export function isNoSuchObject(err: unknown): boolean {
  return err instanceof NoSuchObjectError;
}
