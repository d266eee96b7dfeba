import { entityIdFor } from '../auth/identity.js';
import { authBlock } from '../auth/auth-block.js';
import { calculateTokenTtl } from '../auth/token-ttl.js';
import type { ApiRequest } from '../http/api-request.js';
import { ApiError, badRequest, permissionDenied, type Reply } from '../http/reply.js';
import type { Route } from '../http/router.js';
import { addressAllowed } from '../../values/index.js';
import { toStr } from '../util/fields.js';
import { mountStore } from './admin-routes.js';
import { ldapLogin } from './login.js';
import { canonicalName, loginPolicies } from './policies.js';

/** `POST auth/<mount>/login/:username`: the only LDAP path callable without a token. */
export const ldapLoginRoute: Route = {
  pattern: 'login/:username+',
  access: 'public',
  handlers: { update: login },
};

async function login(req: ApiRequest): Promise<Reply> {
  const mount = req.mount!;
  const store = mountStore(req);
  const cfg = store.config();
  // Before anything reaches the directory: a login from outside token_bound_cidrs is refused.
  if (!addressAllowed(cfg.token_bound_cidrs, req.clientAddress)) throw permissionDenied();

  const username = req.params.username!;
  const password = typeof req.body.password === 'string' ? req.body.password : toStr('password', req.body.password ?? '');
  const outcome = await ldapLogin(cfg, username, password);
  if (!outcome.ok) throw new ApiError(outcome.status, [outcome.message]);

  const canonical = canonicalName(cfg, username);
  const granted = loginPolicies(cfg, username, outcome.ldapGroups, store.user(canonical), (name) => store.group(name)?.policies);
  if ('error' in granted) throw badRequest(granted.error);

  const { ttl, warnings } = calculateTokenTtl({
    ttl: cfg.token_ttl,
    maxTtl: cfg.token_max_ttl,
    explicitMaxTtl: cfg.token_explicit_max_ttl,
    period: cfg.token_period,
    mountDefaultTtl: mount.config.default_lease_ttl,
    mountMaxTtl: mount.config.max_lease_ttl,
  });
  const type = cfg.token_type === 'batch' ? 'batch' : 'service';
  const entityId = await entityIdFor(req.cluster.store, mount.accessor, outcome.alias);
  const { token, entry } = await req.cluster.tokens.create({
    policies: granted.policies,
    displayName: `${mount.path.replace(/\/$/, '').replaceAll('/', '-')}-${username}`,
    path: `auth/${mount.path}login/${username}`,
    namespace: req.cluster.namespace,
    meta: { username },
    entityId,
    ttl,
    explicitMaxTtl: cfg.token_explicit_max_ttl,
    period: cfg.token_period,
    numUses: cfg.token_num_uses,
    boundCidrs: cfg.token_bound_cidrs,
    type,
    // For the renewal's login (renew.ts), as Vault's InternalData; in memory only.
    loginPassword: password,
  });
  const outcomeWarnings = (outcome as { warnings?: string[] }).warnings ?? [];
  return {
    kind: 'auth',
    // backend.go Login answers a Response whose Data is an empty map: `data: {}`.
    data: {},
    warnings: [...outcomeWarnings, ...warnings],
    auth: authBlock(token, entry, ttl),
  };
}
