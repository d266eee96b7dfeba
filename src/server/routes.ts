import { tokenRouter } from './auth/token-routes.js';
import type { ResolvedRoute } from './http/pipeline.js';
import { Router } from './http/router.js';
import { ldapRouter } from './ldap/routes.js';
import type { ClusterServices } from './services.js';
import { authMethodRoutes } from './sys/auth-routes.js';
import { healthRoute } from './sys/health.js';
import { mountRoutes } from './sys/mounts-routes.js';

const sysRouter = new Router([healthRoute, ...authMethodRoutes, ...mountRoutes]);

/** The router of each auth method type; an auth mount's paths are matched relative to it. */
const AUTH_METHOD_ROUTERS: Record<string, Router> = { token: tokenRouter, ldap: ldapRouter };

/** Finds what serves `path` (after /v1/): a sys route, or a route of the auth mount it falls in. */
export function resolveRoute(cluster: ClusterServices, path: string): ResolvedRoute | undefined {
  if (path.startsWith('auth/')) {
    const found = cluster.mounts.resolveAuth(path.slice('auth/'.length));
    if (!found) return undefined;
    const match = AUTH_METHOD_ROUTERS[found.mount.type]?.match(found.rest);
    return match && { ...match, mount: found.mount };
  }
  return sysRouter.match(path);
}
