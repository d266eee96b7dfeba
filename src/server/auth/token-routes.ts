import type { ApiRequest } from '../http/api-request.js';
import { aclDenied, ApiError, gathered, badRequest, noContent, ok, type Reply } from '../http/reply.js';
import { Router } from '../http/router.js';
import { toDurationSeconds } from '../util/fields.js';
import { authBlock } from './auth-block.js';
import { createToken } from './token-create.js';
import { SYSTEM_MAX_TTL } from './token-ttl.js';

/**
 * The built-in token method at `auth/token/` (vault/token_store.go); paths are relative to the
 * mount. The built-in `default` policy lets any valid token look itself up, renew and revoke
 * itself (access 'token'); looking up other tokens and creating tokens takes root here.
 */
export const tokenRouter = new Router([
  {
    pattern: 'lookup-self',
    access: 'acl',
    handlers: {
      read: ({ cluster, caller }) => ok(cluster.tokens.describe(caller!)),
      // The default policy grants lookup-self "read" only (vault/policy_store.go defaultPolicy).
      update: ({ cluster, caller }) => {
        if (!caller!.isRoot) throw aclDenied();
        return ok(cluster.tokens.describe(caller!));
      },
    },
  },
  { pattern: 'renew-self', access: 'acl', handlers: { update: renewSelf } },
  {
    pattern: 'revoke-self',
    access: 'acl',
    handlers: {
      update: async ({ cluster, caller }) => {
        // The configured root token (`serve --token`) outlives this: it is the cluster's.
        if (caller!.token !== cluster.tokens.rootToken) await cluster.tokens.revoke(caller!.token);
        return noContent();
      },
    },
  },
  { pattern: 'lookup', access: 'acl', handlers: { read: lookup, update: lookup } },
  { pattern: 'lookup-accessor', access: 'acl', handlers: { update: lookupAccessor } },
  { pattern: 'create', access: 'acl', handlers: { update: createToken } },
]);

/**
 * handleLookup: the `token` given (in the body, or the query of a GET: the framework reads
 * both), else the caller's; an unknown one is 403 "bad token". A `token` that is there but null
 * is refused before the handler (vault/request_handling.go: "invalid token"); so is one that is
 * not text, which Vault's unchecked token.(string) there cannot take either (OpenBao checks it
 * and answers the same).
 */
function lookup({ cluster, caller, body, query }: ApiRequest): Reply {
  const given = 'token' in body ? body.token : (query.get('token') ?? '');
  if (typeof given !== 'string') throw new ApiError(403, ['invalid token']);
  const token = given === '' ? caller!.token : given;
  const found = cluster.tokens.lookup(token);
  if (!found) throw new ApiError(403, ['bad token']);
  return ok(cluster.tokens.describe(found));
}

/** handleUpdateLookupAccessor: as lookup, with `id` blanked; an unknown accessor is a 400. */
function lookupAccessor({ cluster, body }: ApiRequest): Reply {
  const accessor = typeof body.accessor === 'string' ? body.accessor : '';
  // Returned as errors (logical.StatusBadRequest), not error responses: the answer gathers them.
  if (accessor === '') throw gathered(400, 'missing accessor');
  const found = cluster.tokens.lookupAccessor(accessor);
  if (!found) throw gathered(400, 'invalid accessor');
  return ok({ ...cluster.tokens.describe(found), id: '' });
}

async function renewSelf({ cluster, caller, body }: ApiRequest): Promise<Reply> {
  if (!caller!.entry.renewable) throw badRequest('lease is not renewable');
  const increment = body.increment === undefined ? 0 : toDurationSeconds('increment', body.increment);
  const renewed = await cluster.tokens.renew(caller!, increment, SYSTEM_MAX_TTL);
  return { kind: 'auth', auth: authBlock(caller!.token, renewed.caller.entry, renewed.ttl) };
}
