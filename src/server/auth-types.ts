/** Auth method types that `POST sys/auth/:path` can enable (the token method is built in). */
const ENABLEABLE_AUTH_TYPES = new Set(['ldap', 'jwt', 'approle']);

export function isEnableableAuthType(type: string): boolean {
  return ENABLEABLE_AUTH_TYPES.has(type);
}
