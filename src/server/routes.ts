import { approleRouter } from './approle/routes.js';
import { tokenRouter } from './auth/token-routes.js';
import type { ResolvedRoute } from './http/pipeline.js';
import { gathered } from './http/reply.js';
import { Router } from './http/router.js';
import { jwtRouter } from './jwt/routes.js';
import { ldapRouter } from './ldap/routes.js';
import { managedKeyRoutes } from './managed-keys/routes.js';
import { splitNamespace } from './namespaces/path.js';
import { NamespaceRegistry } from './namespaces/registry.js';
import { namespaceRoutes } from './namespaces/routes.js';
import { namespaceServices } from './namespaces/scope.js';
import { drReplicationRoutes } from './replication/routes.js';
import type { ClusterServices } from './services.js';
import { snapshotAutoRoutes } from './snapshots/routes.js';
import { authMethodRoutes } from './sys/auth-routes.js';
import { healthRoute } from './sys/health.js';
import { sealRoutes } from './sys/seal-routes.js';
import { mountRoutes } from './sys/mounts-routes.js';

const sysRouter = new Router([healthRoute, ...sealRoutes, ...namespaceRoutes, ...authMethodRoutes, ...mountRoutes, ...snapshotAutoRoutes, ...managedKeyRoutes, ...drReplicationRoutes]);

/** What a namespace other than the root serves: its child namespaces, auth methods, mounts and managed keys. */
const namespaceRouter = new Router([...namespaceRoutes, ...authMethodRoutes, ...mountRoutes, ...managedKeyRoutes]);

/** The router of each auth method type; an auth mount's paths are matched relative to it. */
const AUTH_METHOD_ROUTERS: Record<string, Router> = { token: tokenRouter, ns_token: tokenRouter, ldap: ldapRouter, jwt: jwtRouter, approle: approleRouter };

/**
 * Finds what serves `path` (after /v1/): a sys route, or a route of the auth mount it falls in.
 * A namespace prefix (`team-a/sys/...`) is routed inside that namespace, whose handlers get
 * the namespace's view of the cluster. A namespace never created through sys/namespaces
 * serves nothing (namespaces/registry.ts).
 */
export function resolveRoute(cluster: ClusterServices, path: string): ResolvedRoute | undefined {
  const split = splitNamespace(path);
  if (!split) return undefined;
  if (split.namespace === '') return resolveIn(cluster, path, sysRouter);
  if (!new NamespaceRegistry(cluster.store).exists(split.namespace)) return undefined;
  const services = namespaceServices(cluster, split.namespace);
  const match = resolveIn(services, split.rest, namespaceRouter);
  return match && { ...match, services };
}

function resolveIn(cluster: ClusterServices, path: string, router: Router): ResolvedRoute | undefined {
  if (path.startsWith('auth/')) {
    const found = cluster.mounts.resolveAuth(path.slice('auth/'.length));
    if (!found) return undefined;
    const match = AUTH_METHOD_ROUTERS[found.mount.type]?.match(found.rest);
    return match && { ...match, mount: found.mount };
  }
  return router.match(path);
}

/**
 * What the service answers (404) for a path nothing serves: inside an auth method, the
 * backend's unsupported path (sdk/framework/backend.go HandleRequest: logical.ErrUnsupportedPath,
 * gathered by vault/request_handling.go); elsewhere the router's "no handler" with the path as
 * the namespace it falls in sees it (vault/router.go routeCommon). A namespace never created
 * is no namespace: the root sees the whole path.
 */
export function unroutedErrors(cluster: ClusterServices, path: string): string[] {
  const split = splitNamespace(path);
  const inNamespace = split !== undefined && split.namespace !== '' && new NamespaceRegistry(cluster.store).exists(split.namespace);
  const services = inNamespace ? namespaceServices(cluster, split.namespace) : cluster;
  const inner = inNamespace ? split.rest : path;
  if (inner.startsWith('auth/') && services.mounts.resolveAuth(inner.slice('auth/'.length))) return gathered(404, 'unsupported path').errors;
  return [`no handler for route ${JSON.stringify(inner)}. route entry not found.`];
}
