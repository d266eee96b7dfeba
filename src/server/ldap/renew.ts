import { authBlock } from '../auth/auth-block.js';
import type { MethodRenewal } from '../auth/method-renewal.js';
import { calculateRenewalTtl } from '../auth/token-ttl.js';
import { ApiError, gathered, type Reply } from '../http/reply.js';
import { LdapMountStore } from './ldap-store.js';
import { ldapLogin, USER_BIND_FAILED } from './login.js';
import { canonicalName, configuredPolicies, mappedPolicies } from './policies.js';

/** serve's own answer where Vault would still hold the password: serve keeps it in memory only. */
export const PASSWORD_NOT_KEPT = "the login's password is not kept across restarts of lockstep serve (it is held in memory only); log in again";

/**
 * Renewal of a token an LDAP login issued (builtin/credential/ldap/path_login.go
 * pathLoginRenew): the login runs again with the password it was made with, and the renewal is
 * refused when the policies it now resolves to differ from the token's
 * (policyutil.EquivalentPolicies: `default` left out, compared as they are, so token_policies
 * written `Dev` never match the token's `dev`). The lease comes from the config as it is now.
 * A login that fails without an error is its error response (400); errors are wrapped by the
 * expiration manager (vault/expiration.go renewAuthEntry) and gathered by the request handling.
 */
export const renewLdapLogin: MethodRenewal = async ({ cluster, mount, caller, increment }) => {
  const store = new LdapMountStore(cluster.store, mount);
  const cfg = store.config();
  const username = caller.entry.meta?.username ?? '';
  const password = cluster.tokens.loginPassword(caller);
  if (password === undefined) throw gathered(500, `failed to renew entry: ${PASSWORD_NOT_KEPT}`);

  const outcome = await ldapLogin(cfg, username, password);
  if (!outcome.ok) {
    // A failed bind comes with logical.ErrInvalidCredentials (backend.go Login), which the
    // expiration manager wraps; any other failure is only an error response, answered as is.
    if (outcome.message === USER_BIND_FAILED) throw gathered(400, 'failed to renew entry: invalid credentials');
    throw new ApiError(outcome.status, [outcome.message]);
  }
  const mapped = mappedPolicies(cfg, outcome.ldapGroups, store.user(canonicalName(cfg, username)), (name) => store.group(name)?.policies);
  if (!equivalentPolicies([...configuredPolicies(cfg), ...mapped], caller.entry.policies)) {
    throw gathered(500, 'failed to renew entry: policies have changed, not renewing');
  }

  const lease = calculateRenewalTtl({
    increment,
    elapsed: Math.floor(cluster.clock.now() / 1000) - caller.entry.creation_time,
    ttl: cfg.token_ttl,
    maxTtl: cfg.token_max_ttl,
    explicitMaxTtl: caller.entry.explicit_max_ttl,
    period: cfg.token_period,
    mountDefaultTtl: mount.config.default_lease_ttl,
    mountMaxTtl: mount.config.max_lease_ttl,
  });
  if ('error' in lease) throw gathered(500, lease.error);
  const renewed = await cluster.tokens.extend(caller, lease.ttl);
  return { kind: 'auth', auth: authBlock(caller.token, renewed.entry, lease.ttl), warnings: lease.warnings } satisfies Reply;
};

/** policyutil.EquivalentPolicies: the same set once `default` is left out, case as it is. */
function equivalentPolicies(a: readonly string[], b: readonly string[]): boolean {
  const setA = new Set(a.filter((p) => p !== 'default'));
  const setB = new Set(b.filter((p) => p !== 'default'));
  return setA.size === setB.size && [...setA].every((p) => setB.has(p));
}
