import type { ApiRequest } from '../http/api-request.js';
import { badRequest, type Reply } from '../http/reply.js';
import { toBool, toDurationSeconds, toList } from '../util/fields.js';
import type { JsonObject } from '../util/json.js';
import { normalisePolicies } from '../util/lists.js';
import { authBlock } from './auth-block.js';
import { entityIdFor } from './identity.js';
import { calculateTokenTtl } from './token-ttl.js';

/** The token fields a role of the JWT and AppRole methods keeps (sdk/helper/tokenutil, the subset served). */
export interface RoleTokenFields {
  token_policies: string[];
  token_ttl: number;
  token_max_ttl: number;
  token_no_default_policy: boolean;
}

export const DEFAULT_TOKEN_FIELDS: RoleTokenFields = { token_policies: [], token_ttl: 0, token_max_ttl: 0, token_no_default_policy: false };

/** tokenutil.ParseTokenFields for the fields served: each given one replaces the role's (`policies` is the old name of `token_policies`). */
/** The token fields' type conversions alone (tokenutil's field schema, FieldData.Validate): throws FieldError. */
export function validateTokenFields(body: JsonObject): void {
  const policies = body.token_policies ?? body.policies;
  if (policies !== undefined) toList('token_policies', policies);
  if (body.token_ttl !== undefined) toDurationSeconds('token_ttl', body.token_ttl);
  if (body.token_max_ttl !== undefined) toDurationSeconds('token_max_ttl', body.token_max_ttl);
  if (body.token_no_default_policy !== undefined) toBool('token_no_default_policy', body.token_no_default_policy);
}

export function parseTokenFields(current: RoleTokenFields, body: JsonObject): RoleTokenFields {
  const next = { ...current };
  const policies = body.token_policies ?? body.policies;
  if (policies !== undefined) next.token_policies = normalisePolicies(toList('token_policies', policies));
  if (body.token_ttl !== undefined) next.token_ttl = toDurationSeconds('token_ttl', body.token_ttl);
  if (body.token_max_ttl !== undefined) next.token_max_ttl = toDurationSeconds('token_max_ttl', body.token_max_ttl);
  if (body.token_no_default_policy !== undefined) next.token_no_default_policy = toBool('token_no_default_policy', body.token_no_default_policy);
  if (next.token_max_ttl > 0 && next.token_ttl > next.token_max_ttl) throw badRequest('ttl should not be greater than max ttl');
  return next;
}

/** How a role shows its token fields (tokenutil.PopulateTokenData, the subset served). */
export function tokenFieldsView(fields: RoleTokenFields): JsonObject {
  return {
    token_policies: fields.token_policies,
    policies: fields.token_policies,
    token_ttl: fields.token_ttl,
    token_max_ttl: fields.token_max_ttl,
    token_no_default_policy: fields.token_no_default_policy,
  };
}

/**
 * The token of a successful login, as the service's core makes it from the method's answer
 * (vault/request_handling.go handleLoginRequest): `default` added unless the role says not,
 * no root token from an auth method, the TTL from the role and the mount.
 */
export async function issueLoginToken(
  req: ApiRequest,
  login: { fields: RoleTokenFields; displayName: string; aliasName: string; meta: Record<string, string> },
): Promise<Reply> {
  const mount = req.mount!;
  const { fields } = login;
  if (fields.token_policies.includes('root')) throw badRequest('auth methods cannot create root tokens');
  const policies = normalisePolicies(fields.token_no_default_policy ? fields.token_policies : [...fields.token_policies, 'default']);
  const { ttl, warnings } = calculateTokenTtl({
    ttl: fields.token_ttl,
    maxTtl: fields.token_max_ttl,
    explicitMaxTtl: 0,
    period: 0,
    mountDefaultTtl: mount.config.default_lease_ttl,
    mountMaxTtl: mount.config.max_lease_ttl,
  });
  const entityId = await entityIdFor(req.cluster.store, mount.accessor, login.aliasName);
  const prefix = mount.path.replace(/\/$/, '').replaceAll('/', '-');
  const { token, entry } = await req.cluster.tokens.create({
    policies,
    displayName: login.displayName === '' ? prefix : `${prefix}-${login.displayName}`,
    path: `auth/${mount.path}login`,
    namespace: req.cluster.namespace,
    meta: login.meta,
    entityId,
    ttl,
    type: 'service',
  });
  return { kind: 'auth', auth: authBlock(token, entry, ttl), warnings };
}
