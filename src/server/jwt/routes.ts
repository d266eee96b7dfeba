import type { KeyObject } from 'node:crypto';
import { issueLoginToken, DEFAULT_TOKEN_FIELDS, parseTokenFields, tokenFieldsView, validateTokenFields, type RoleTokenFields } from '../auth/login-token.js';
import type { ApiRequest } from '../http/api-request.js';
import { ApiError, badRequest, keyList, noContent, notFound, ok, permissionDenied, type Reply } from '../http/reply.js';
import { Router, type ExistenceQuery } from '../http/router.js';
import { storagePrefix } from '../sys/mount-table.js';
import { toList, toStr } from '../util/fields.js';
import { isJsonObject, plainJson, type JsonObject, type JsonValue } from '../util/json.js';
import { addressAllowed } from '../../values/index.js';
import { audienceOf, jwksKeys, parsePublicKeyPem, TokenInvalid, validateJwt } from './verify.js';

/**
 * The JWT auth method (hashicorp/vault-plugin-auth-jwt), for logins with a signed JWT such as
 * a CI job's OIDC identity token: `config` with bound public keys (`jwt_validation_pubkeys`)
 * or a JWKS (`jwks_url`), `role/:name` with role_type jwt, and `login`. OIDC (browser) flows,
 * claim mappings, groups and OIDC discovery are not served.
 */
interface JwtConfig {
  jwt_validation_pubkeys: string[];
  jwks_url: string;
  bound_issuer: string;
  default_role: string;
}

interface JwtRole extends RoleTokenFields {
  role_type: 'jwt' | 'oidc';
  bound_audiences: string[];
  bound_subject: string;
  bound_claims: JsonObject;
  user_claim: string;
  token_bound_cidrs: string[];
}

const prefix = (req: Pick<ApiRequest, 'mount'>): string => storagePrefix(req.mount!);
const configOf = (req: ApiRequest): JwtConfig | undefined => req.cluster.store.get(`${prefix(req)}config`) as JwtConfig | undefined;
const roleOf = (req: Pick<ApiRequest, 'cluster' | 'mount'>, name: string): JwtRole | undefined => req.cluster.store.get(`${prefix(req)}role/${name}`) as JwtRole | undefined;

export const jwtRouter = new Router([
  { pattern: 'config', access: 'acl', handlers: { read: readConfig, update: writeConfig } },
  { pattern: 'role/?', access: 'acl', handlers: { list: (req) => keyList(req.cluster.store.keysUnder(`${prefix(req)}role/`).map((k) => k.slice(`${prefix(req)}role/`.length))) } },
  {
    pattern: 'role/:name',
    access: 'acl',
    // path_role.go pathRoleExistenceCheck: the role as the write would find it.
    exists: (query: ExistenceQuery) => roleOf(query, query.params.name!.toLowerCase()) !== undefined,
    validateFields: (body) => {
      validateTokenFields(body);
      for (const field of ['role_type', 'bound_subject', 'user_claim'] as const) if (body[field] !== undefined) toStr(field, body[field]);
    },
    handlers: {
      read: (req) => {
        const role = roleOf(req, req.params.name!.toLowerCase());
        if (!role) throw notFound();
        return ok(roleView(role));
      },
      update: writeRole,
      delete: async (req) => {
        await req.cluster.store.delete(`${prefix(req)}role/${req.params.name!.toLowerCase()}`);
        return noContent();
      },
    },
  },
  { pattern: 'login', access: 'public', handlers: { update: login } },
]);

function readConfig(req: ApiRequest): Reply {
  const cfg = configOf(req);
  if (!cfg) throw notFound();
  return ok({ ...cfg, jwks_ca_pem: '', oidc_discovery_url: '', jwt_supported_algs: [] });
}

/** path_config.go pathConfigWrite: exactly one way to find keys; each key and the JWKS checked as they are written. */
async function writeConfig(req: ApiRequest): Promise<Reply> {
  const { body } = req;
  const cfg: JwtConfig = {
    jwt_validation_pubkeys: toList('jwt_validation_pubkeys', body.jwt_validation_pubkeys),
    jwks_url: body.jwks_url === undefined ? '' : toStr('jwks_url', body.jwks_url),
    bound_issuer: body.bound_issuer === undefined ? '' : toStr('bound_issuer', body.bound_issuer),
    default_role: body.default_role === undefined ? '' : toStr('default_role', body.default_role).toLowerCase(),
  };
  const ways = [cfg.jwt_validation_pubkeys.length > 0, cfg.jwks_url !== '', body.oidc_discovery_url !== undefined && body.oidc_discovery_url !== ''].filter(Boolean).length;
  if (ways !== 1) throw badRequest("exactly one of 'jwt_validation_pubkeys', 'jwks_url', 'jwks_pairs' or 'oidc_discovery_url' must be set");
  if (body.oidc_discovery_url) throw badRequest('error checking oidc discovery URL');
  for (const pem of cfg.jwt_validation_pubkeys) {
    try {
      parsePublicKeyPem(pem);
    } catch (err) {
      throw badRequest(`error parsing public key: ${(err as Error).message}`);
    }
  }
  if (cfg.jwks_url !== '' && (await fetchJwks(cfg.jwks_url)) === undefined) throw badRequest(`error checking jwks URL ${cfg.jwks_url}`);
  await req.cluster.store.put(`${prefix(req)}config`, cfg as unknown as JsonObject);
  return noContent();
}

/** path_role.go pathRoleCreateUpdate, for role_type jwt: a user claim and at least one bound constraint. */
async function writeRole(req: ApiRequest): Promise<Reply> {
  const name = req.params.name!.toLowerCase();
  const { body } = req;
  const existing = roleOf(req, name);
  const roleType = body.role_type === undefined ? (existing?.role_type ?? 'oidc') : toStr('role_type', body.role_type) || 'oidc';
  if (roleType !== 'jwt' && roleType !== 'oidc') throw badRequest(`invalid 'role_type': ${roleType}`);
  const boundClaims = body.bound_claims === undefined ? (existing?.bound_claims ?? {}) : plainJson(body.bound_claims);
  if (!isJsonObject(boundClaims)) throw badRequest('bound_claims must be a map');
  for (const value of Object.values(boundClaims)) {
    const values = Array.isArray(value) ? value : [value];
    if (!values.every((v) => typeof v === 'string')) throw badRequest(`claim is not a string or list: ${JSON.stringify(value)}`);
  }
  const role: JwtRole = {
    ...parseTokenFields(existing ?? DEFAULT_TOKEN_FIELDS, body),
    role_type: roleType,
    bound_audiences: body.bound_audiences === undefined ? (existing?.bound_audiences ?? []) : toList('bound_audiences', body.bound_audiences),
    bound_subject: body.bound_subject === undefined ? (existing?.bound_subject ?? '') : toStr('bound_subject', body.bound_subject),
    bound_claims: boundClaims,
    user_claim: body.user_claim === undefined ? (existing?.user_claim ?? '') : toStr('user_claim', body.user_claim),
    token_bound_cidrs: body.token_bound_cidrs === undefined ? (existing?.token_bound_cidrs ?? []) : toList('token_bound_cidrs', body.token_bound_cidrs),
  };
  if (role.user_claim === '') throw badRequest('a user claim must be defined on the role');
  if (roleType === 'oidc') throw badRequest("'allowed_redirect_uris' must be set if 'role_type' is 'oidc' or unspecified.");
  if (role.bound_audiences.length === 0 && role.token_bound_cidrs.length === 0 && role.bound_subject === '' && Object.keys(role.bound_claims).length === 0) {
    throw badRequest('must have at least one bound constraint when creating/updating a role');
  }
  await req.cluster.store.put(`${prefix(req)}role/${name}`, role as unknown as JsonObject);
  return noContent();
}

function roleView(role: JwtRole): JsonObject {
  return {
    role_type: role.role_type,
    bound_audiences: role.bound_audiences,
    bound_subject: role.bound_subject,
    bound_claims: role.bound_claims,
    bound_claims_type: 'string',
    user_claim: role.user_claim,
    token_bound_cidrs: role.token_bound_cidrs,
    ...tokenFieldsView(role),
  };
}

/** path_login.go pathLogin, in its order: config, role, token, CIDRs, signature and claims, audience, user claim, bound claims. */
async function login(req: ApiRequest): Promise<Reply> {
  const cfg = configOf(req);
  if (!cfg) throw badRequest('could not load configuration');
  const roleName = (req.body.role === undefined ? '' : toStr('role', req.body.role).toLowerCase()) || cfg.default_role;
  if (roleName === '') throw badRequest('missing role');
  const role = roleOf(req, roleName);
  if (!role) throw badRequest(`role ${JSON.stringify(roleName)} could not be found`);
  if (role.role_type === 'oidc') throw badRequest('role with oidc role_type is not allowed');
  const token = req.body.jwt === undefined ? '' : toStr('jwt', req.body.jwt);
  if (token === '') throw badRequest('missing token');
  if (role.token_bound_cidrs.length > 0 && !addressAllowed(role.token_bound_cidrs, req.clientAddress)) throw permissionDenied();

  const keys = await keysOf(cfg);
  let claims: JsonObject;
  try {
    claims = validateJwt(token, keys, { issuer: cfg.bound_issuer, audiences: role.bound_audiences, nowSeconds: Math.floor(req.cluster.clock.now() / 1000) });
    if (role.bound_subject !== '' && claims['sub'] !== role.bound_subject) throw new TokenInvalid('invalid subject (sub) claim');
  } catch (err) {
    if (err instanceof TokenInvalid) throw badRequest(`error validating token: ${err.message}`);
    throw err;
  }
  if (role.bound_audiences.length === 0 && audienceOf(claims['aud']).length > 0) throw badRequest('audience claim found in JWT but no audiences bound to the role');
  const user = claims[role.user_claim];
  if (user === undefined || user === null) throw badRequest(`claim ${JSON.stringify(role.user_claim)} not found in token`);
  if (typeof user !== 'string') throw badRequest(`claim ${JSON.stringify(role.user_claim)} could not be converted to string`);
  const unmatched = unmatchedBoundClaim(role.bound_claims, claims);
  if (unmatched) throw badRequest(`error validating claims: ${unmatched}`);
  return issueLoginToken(req, { fields: role, displayName: user, aliasName: user, meta: { role: roleName } });
}

/** claims.go validateBoundClaims (string matching): every bound claim present, one of its values among the token's. */
function unmatchedBoundClaim(bound: JsonObject, claims: JsonObject): string | undefined {
  for (const [claim, expected] of Object.entries(bound)) {
    const actual = claims[claim];
    if (actual === undefined || actual === null) return `claim ${JSON.stringify(claim)} is missing`;
    const actualValues = Array.isArray(actual) ? actual : [actual];
    if (typeof actual === 'object' && !Array.isArray(actual)) return `received claim is not a string, bool, int or list: ${JSON.stringify(actual)}`;
    const expectedValues: JsonValue[] = Array.isArray(expected) ? expected : [expected];
    if (!expectedValues.some((e) => actualValues.some((a) => a === e))) return `claim ${JSON.stringify(claim)} does not match any associated bound claim values`;
  }
  return undefined;
}

async function keysOf(cfg: JwtConfig): Promise<KeyObject[]> {
  if (cfg.jwt_validation_pubkeys.length > 0) return cfg.jwt_validation_pubkeys.map((pem) => parsePublicKeyPem(pem));
  const keys = await fetchJwks(cfg.jwks_url);
  if (keys === undefined) throw new ApiError(400, [`error validating token: error verifying token signature: fetching keys failed`]);
  return keys;
}

/** The keys of the JWKS at `url` (fetched at each login: the service caches them, the emulator need not). */
async function fetchJwks(url: string): Promise<KeyObject[] | undefined> {
  try {
    const res = await fetch(url, { signal: AbortSignal.timeout(10_000) });
    if (!res.ok) return undefined;
    const keys = jwksKeys(await res.json());
    return keys.length > 0 ? keys : undefined;
  } catch {
    return undefined;
  }
}
