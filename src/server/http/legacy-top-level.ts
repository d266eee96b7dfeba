/**
 * The service's HTTP mux serves these URL paths with a handler that also copies an answer's
 * `data` members to the top of the envelope, for clients older than the envelope
 * (hashicorp/vault http/handler.go injectDataIntoTopRoutes, http/logical.go respondLogical,
 * sdk/logical HTTPSysInjector). ServeMux patterns: one ending in `/` matches its whole subtree,
 * the others only themselves. The mux reads the URL's path, so `team-a/sys/auth` (a namespace
 * in the path) is not among them while `sys/auth` with an X-Vault-Namespace header is.
 */
const INJECT_DATA_INTO_TOP_ROUTES = [
  '/v1/sys/audit',
  '/v1/sys/audit/',
  '/v1/sys/audit-hash/',
  '/v1/sys/auth',
  '/v1/sys/auth/',
  '/v1/sys/config/cors',
  '/v1/sys/config/auditing/request-headers/',
  '/v1/sys/config/auditing/request-headers',
  '/v1/sys/capabilities',
  '/v1/sys/capabilities-accessor',
  '/v1/sys/capabilities-self',
  '/v1/sys/ha-status',
  '/v1/sys/key-status',
  '/v1/sys/mounts',
  '/v1/sys/mounts/',
  '/v1/sys/policy',
  '/v1/sys/policy/',
  '/v1/sys/rekey/backup',
  '/v1/sys/rekey/recovery-key-backup',
  '/v1/sys/remount',
  '/v1/sys/rotate',
  '/v1/sys/wrapping/wrap',
];

/** Whether the URL path (`/v1/sys/auth/ldap/tune`, segments decoded) gets data at the top. */
export function injectsDataAtTop(urlPath: string): boolean {
  return INJECT_DATA_INTO_TOP_ROUTES.some((route) => (route.endsWith('/') ? urlPath.startsWith(route) : urlPath === route));
}
