import { ok } from '../http/reply.js';
import { Router } from '../http/router.js';

/** The built-in token method at `auth/token/`; paths here are relative to the mount. */
export const tokenRouter = new Router([
  {
    pattern: 'lookup-self',
    access: 'token',
    handlers: {
      read: ({ cluster, caller }) => ok(cluster.tokens.describe(caller!)),
      update: ({ cluster, caller }) => ok(cluster.tokens.describe(caller!)),
    },
  },
]);
