import { badRequest, noContent, ok } from '../http/reply.js';
import type { Route } from '../http/router.js';
import type { MountKind } from './mount-table.js';
import { parseNewMount } from './mount-request.js';
import { applyTune, mountListing, mountsListing, tuneView } from './mount-view.js';

/**
 * Secrets engines are inert here (their own APIs are not emulated); only the mount table is.
 * A type outside the service's builtin catalog (helper/builtinplugins/registry.go and the
 * Enterprise engines; the cloud providers' engines are left out, as the spec names none) is
 * no plugin it knows.
 */
const SECRETS_TYPES = new Set([
  ...['kv', 'generic', 'pki', 'transit', 'ssh', 'totp', 'database', 'ldap', 'openldap', 'nomad', 'consul', 'rabbitmq', 'terraform', 'kubernetes', 'mongodbatlas'],
  ...['transform', 'keymgmt', 'kmip'],
]);

/** `sys/mounts/auth/<path>` addresses an auth method, as in the service. */
function target(path: string): { kind: MountKind; path: string } {
  return path.startsWith('auth/') ? { kind: 'auth', path: path.slice(5) } : { kind: 'secret', path };
}

/** `sys/mounts`: list, mount, read, unmount and tune secrets engines (with allowed_managed_keys). */
export const mountRoutes: Route[] = [
  {
    pattern: 'sys/mounts',
    access: 'acl',
    handlers: {
      read: ({ cluster }) => ok(mountsListing(cluster.mounts.list('secret'), cluster.release)),
    },
  },
  {
    pattern: 'sys/mounts/:path+/tune',
    access: 'acl',
    handlers: {
      read: ({ cluster, params }) => {
        const { kind, path } = target(params.path!);
        const mount = cluster.mounts.get(kind, path);
        if (!mount) throw badRequest(`cannot fetch sysview for path "${params.path}/"`);
        return ok(tuneView(mount));
      },
      update: async ({ cluster, params, body }) => {
        const { kind, path } = target(params.path!);
        await cluster.mounts.tune(kind, path, (mount) => applyTune(mount, body));
        return noContent();
      },
    },
  },
  {
    pattern: 'sys/mounts/:path+',
    access: 'acl',
    handlers: {
      read: ({ cluster, params }) => {
        // logical_system.go handleReadMount: the mount the path falls in (router.go
        // MatchingMountEntry), so `sys/mounts/secret/tune/` (no tune pattern takes it) reads `secret/`.
        const mount = cluster.mounts.matching('secret', params.path!);
        if (!mount) throw badRequest(`No secret engine mount at ${params.path!.replace(/\/?$/, '/')}`);
        return ok(mountListing(mount, cluster.release));
      },
      update: async ({ cluster, params, body }) => {
        const spec = parseNewMount(body);
        if (!SECRETS_TYPES.has(spec.type)) throw badRequest(`plugin not found in the catalog: ${spec.type}`);
        await cluster.mounts.mount('secret', params.path!, spec);
        return noContent();
      },
      delete: async ({ cluster, params }) => {
        await cluster.mounts.unmount('secret', params.path!);
        return noContent();
      },
    },
  },
];
