import type { ApiRequest } from '../http/api-request.js';
import { aclDenied, ApiError, gathered, badRequest, noContent, ok, type Reply } from '../http/reply.js';
import { Router } from '../http/router.js';
import { toBool, toDurationSeconds, toInt, toList, toStr } from '../util/fields.js';
import { normalisePolicies } from '../util/lists.js';
import { authBlock } from './auth-block.js';
import type { TokenType } from './token-store.js';
import { calculateTokenTtl, SYSTEM_MAX_TTL } from './token-ttl.js';

/**
 * The built-in token method at `auth/token/` (vault/token_store.go); paths are relative to the
 * mount. The built-in `default` policy lets any valid token look itself up, renew and revoke
 * itself (access 'token'); looking up other tokens and creating tokens takes root here.
 */
export const tokenRouter = new Router([
  {
    pattern: 'lookup-self',
    access: 'token',
    handlers: {
      read: ({ cluster, caller }) => ok(cluster.tokens.describe(caller!)),
      // The default policy grants lookup-self "read" only (vault/policy_store.go defaultPolicy).
      update: ({ cluster, caller }) => {
        if (!caller!.isRoot) throw aclDenied();
        return ok(cluster.tokens.describe(caller!));
      },
    },
  },
  { pattern: 'renew-self', access: 'token', handlers: { update: renewSelf } },
  {
    pattern: 'revoke-self',
    access: 'token',
    handlers: {
      update: async ({ cluster, caller }) => {
        // The configured root token (`serve --token`) outlives this: it is the cluster's.
        if (caller!.token !== cluster.tokens.rootToken) await cluster.tokens.revoke(caller!.token);
        return noContent();
      },
    },
  },
  { pattern: 'lookup', access: 'root', handlers: { read: lookup, update: lookup } },
  { pattern: 'lookup-accessor', access: 'root', handlers: { update: lookupAccessor } },
  { pattern: 'create', access: 'root', handlers: { update: create } },
]);

/**
 * handleLookup: the `token` given (in the body, or the query of a GET: the framework reads
 * both), else the caller's; an unknown one is 403 "bad token".
 */
function lookup({ cluster, caller, body, query }: ApiRequest): Reply {
  const given = body.token ?? query.get('token') ?? '';
  const token = given === '' ? caller!.token : toStr('token', given);
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

/**
 * handleCreateCommon, for the fields clients use: policies (the parent's when not given),
 * sanitised with `default` added unless no_default_policy; ttl, explicit_max_ttl, period,
 * num_uses, renewable, type, meta, display_name, no_parent. A root token without a TTL
 * never expires.
 */
async function create({ cluster, caller, body }: ApiRequest): Promise<Reply> {
  const given = body.policies === undefined ? caller!.entry.policies : toList('policies', body.policies);
  const noDefault = body.no_default_policy === undefined ? false : toBool('no_default_policy', body.no_default_policy);
  let policies = normalisePolicies(given);
  if (!noDefault && !policies.includes('root') && !policies.includes('default')) policies = normalisePolicies([...policies, 'default']);
  const type = tokenType(body.type);
  const explicitMaxTtl = body.explicit_max_ttl === undefined ? 0 : toDurationSeconds('explicit_max_ttl', body.explicit_max_ttl);
  const period = body.period === undefined ? 0 : toDurationSeconds('period', body.period);
  const requested = body.ttl === undefined ? 0 : toDurationSeconds('ttl', body.ttl);
  const numUses = body.num_uses === undefined ? 0 : toInt('num_uses', body.num_uses);
  if (numUses < 0) throw badRequest('number of uses cannot be negative');
  const neverExpires = policies.includes('root') && requested === 0 && period === 0 && explicitMaxTtl === 0;
  const { ttl, warnings } = neverExpires ? { ttl: 0, warnings: [] } : calculateTokenTtl({ ttl: requested, maxTtl: 0, explicitMaxTtl, period });
  const displayName = body.display_name === undefined ? '' : toStr('display_name', body.display_name);
  const { token, entry } = await cluster.tokens.create({
    policies,
    displayName: displayName === '' ? 'token' : `token-${displayName}`,
    path: 'auth/token/create',
    namespace: cluster.namespace,
    meta: metaOf(body.meta),
    ttl,
    explicitMaxTtl,
    period,
    numUses,
    type,
    orphan: body.no_parent === undefined ? false : toBool('no_parent', body.no_parent),
    renewable: (body.renewable === undefined ? true : toBool('renewable', body.renewable)) && ttl > 0,
  });
  return { kind: 'auth', auth: authBlock(token, entry, ttl), warnings };
}

function tokenType(raw: unknown): TokenType {
  const type = raw === undefined ? 'service' : toStr('type', raw);
  if (type === 'service' || type === 'batch') return type;
  throw badRequest(`unsupported token type ${JSON.stringify(type)}`);
}

function metaOf(raw: unknown): Record<string, string> | undefined {
  if (raw === undefined || raw === null) return undefined;
  if (typeof raw !== 'object' || Array.isArray(raw)) throw badRequest('meta must be a map of strings');
  return Object.fromEntries(Object.entries(raw).map(([k, v]) => [k, toStr(`meta.${k}`, v)]));
}
