import { isEnableableAuthType } from '../auth-types.js';
import { aliasRemovals } from '../auth/identity.js';
import { badRequest, noContent, ok } from '../http/reply.js';
import type { Route } from '../http/router.js';
import { parseNewMount } from './mount-request.js';
import { applyTune, mountListing, mountsListing, tuneView } from './mount-view.js';

/** `sys/auth`: list, enable, read, disable and tune auth methods. */
export const authMethodRoutes: Route[] = [
  {
    pattern: 'sys/auth',
    access: 'acl',
    handlers: {
      read: ({ cluster }) => ok(mountsListing(cluster.mounts.list('auth'), cluster.release)),
    },
  },
  {
    pattern: 'sys/auth/:path+/tune',
    access: 'acl',
    handlers: {
      read: ({ cluster, params }) => {
        const mount = cluster.mounts.get('auth', params.path!);
        if (!mount) throw badRequest(`cannot fetch sysview for path "auth/${params.path}/"`);
        return ok(tuneView(mount));
      },
      update: async ({ cluster, params, body }) => {
        await cluster.mounts.tune('auth', params.path!, (mount) => applyTune(mount, body));
        return noContent();
      },
    },
  },
  {
    pattern: 'sys/auth/:path+',
    access: 'acl',
    handlers: {
      read: ({ cluster, params }) => {
        const mount = cluster.mounts.get('auth', params.path!);
        // logical_system.go handleReadAuth: the path as given, a trailing slash added if it has none (sanitizePath).
        if (!mount) throw badRequest(`No auth engine at ${params.path!.replace(/\/?$/, '/')}`);
        return ok(mountListing(mount, cluster.release));
      },
      update: async ({ cluster, params, body }) => {
        const spec = parseNewMount(body);
        // vault/auth.go enableCredential: the token method is a singleton.
        if (spec.type === 'token' || spec.type === 'ns_token') throw badRequest('token credential backend cannot be instantiated');
        if (!isEnableableAuthType(spec.type)) throw badRequest(`plugin not found in the catalog: ${spec.type}`);
        await cluster.mounts.mount('auth', params.path!, spec);
        return noContent();
      },
      delete: async ({ cluster, params }) => {
        // vault/auth.go disableCredential.
        if (`${params.path!}/`.startsWith('token/')) throw badRequest('token credential backend cannot be disabled');
        // As the service: the method's tokens and entity aliases go with it.
        await cluster.mounts.unmount('auth', params.path!, (mount) => [
          ...cluster.tokens.revocationsUnder(`auth/${mount.path}`, cluster.namespace),
          ...aliasRemovals(cluster.store, mount.accessor),
        ]);
        return noContent();
      },
    },
  },
];
