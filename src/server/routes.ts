import { approleRouter } from './approle/routes.js';
import { tokenRouter } from './auth/token-routes.js';
import type { ResolvedRoute, RouteMiss } from './http/pipeline.js';
import { gathered } from './http/reply.js';
import { Router, type Operation } from './http/router.js';
import { jwtRouter } from './jwt/routes.js';
import { ldapRouter } from './ldap/routes.js';
import { managedKeyRoutes } from './managed-keys/routes.js';
import { splitNamespace } from './namespaces/path.js';
import { NamespaceRegistry } from './namespaces/registry.js';
import { namespaceRoutes } from './namespaces/routes.js';
import { namespaceServices } from './namespaces/scope.js';
import { drReplicationRoutes } from './replication/routes.js';
import type { ClusterServices } from './services.js';
import { policyRoutes } from './policies/routes.js';
import { snapshotAutoRoutes } from './snapshots/routes.js';
import { authMethodRoutes } from './sys/auth-routes.js';
import { healthRoute } from './sys/health.js';
import { leaderRoute } from './sys/leader.js';
import { sealRoutes } from './sys/seal-routes.js';
import { mountRoutes } from './sys/mounts-routes.js';

const sysRouter = new Router([healthRoute, leaderRoute, ...sealRoutes, ...namespaceRoutes, ...authMethodRoutes, ...mountRoutes, ...snapshotAutoRoutes, ...managedKeyRoutes, ...drReplicationRoutes, ...policyRoutes]);

/** What a namespace other than the root serves: its child namespaces, auth methods, mounts, managed keys and ACL policies. */
const namespaceRouter = new Router([...namespaceRoutes, ...authMethodRoutes, ...mountRoutes, ...managedKeyRoutes, ...policyRoutes]);

/** The router of each auth method type; an auth mount's paths are matched relative to it. */
const AUTH_METHOD_ROUTERS: Record<string, Router> = { token: tokenRouter, ns_token: tokenRouter, ldap: ldapRouter, jwt: jwtRouter, approle: approleRouter };

/**
 * Finds what serves `path` (after /v1/): a sys route, or a route of the auth mount it falls in;
 * or why nothing does (http/pipeline.ts RouteMiss). A namespace prefix (`team-a/sys/...`) is
 * routed inside that namespace, whose handlers get the namespace's view of the cluster. A
 * namespace never created through sys/namespaces serves nothing (namespaces/registry.ts).
 */
export function resolveRoute(cluster: ClusterServices, path: string): ResolvedRoute | RouteMiss {
  const split = splitNamespace(path);
  if (!split) return { kind: 'miss', reason: 'unknown' };
  if (split.namespace === '') return resolveIn(cluster, path, sysRouter);
  if (!new NamespaceRegistry(cluster.store).exists(split.namespace)) return { kind: 'miss', reason: 'unknown' };
  const services = namespaceServices(cluster, split.namespace);
  const match = resolveIn(services, split.rest, namespaceRouter);
  return match.kind === 'route' ? { ...match, services } : match;
}

function resolveIn(cluster: ClusterServices, path: string, router: Router): ResolvedRoute | RouteMiss {
  if (path.startsWith('auth/')) {
    const found = cluster.mounts.resolveAuth(path.slice('auth/'.length));
    if (!found) return { kind: 'miss', reason: 'unmounted' };
    const methodRouter = AUTH_METHOD_ROUTERS[found.mount.type];
    const match = methodRouter?.match(found.rest);
    if (match) return { kind: 'route', ...match, mount: found.mount, backendPath: found.rest, routePrefix: '' };
    const backend = found.rest === '' && methodRouter ? { type: found.mount.type, routes: methodRouter.routes } : undefined;
    return { kind: 'miss', reason: 'unsupported', ...(backend && { backend }) };
  }
  const match = router.match(path);
  // Every route of these routers is a sys/ path: the system backend's.
  if (match) return { kind: 'route', ...match, backendPath: path.replace(/^sys\//, ''), routePrefix: 'sys/' };
  // sys/ is a mount; so are the secrets engines, mounted but not served here.
  const mounted = cluster.mounts.list('secret').some((m) => `${path}/`.startsWith(m.path));
  return { kind: 'miss', reason: mounted ? 'unsupported' : 'unmounted' };
}

/**
 * What the service answers (404) for a path nothing serves: inside a mount (an auth method, or a
 * secrets engine mounted but not served here), the backend's unsupported path
 * (sdk/framework/backend.go HandleRequest: logical.ErrUnsupportedPath, gathered by
 * vault/request_handling.go); elsewhere the router's "no handler" with the path as the namespace
 * it falls in sees it, a LIST's ending in "/" (vault/router.go routeCommon, http/logical.go). A
 * namespace never created is no namespace: the root sees the whole path.
 */
export function unroutedErrors(cluster: ClusterServices, path: string, operation: Operation): string[] {
  const split = splitNamespace(path);
  const inNamespace = split !== undefined && split.namespace !== '' && new NamespaceRegistry(cluster.store).exists(split.namespace);
  const services = inNamespace ? namespaceServices(cluster, split.namespace) : cluster;
  const inner = inNamespace ? split.rest : path;
  const miss = resolveIn(services, inner, inNamespace ? namespaceRouter : sysRouter);
  if (miss.kind === 'miss' && miss.reason === 'unsupported') return gathered(404, 'unsupported path').errors;
  const shown = operation === 'list' && !inner.endsWith('/') ? `${inner}/` : inner;
  return [`no handler for route ${JSON.stringify(shown)}. route entry not found.`];
}
