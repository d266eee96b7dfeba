import { expect } from 'vitest';
import type { Fact, Step } from '../fact.js';

const PATH_LOGIN_GO = 'builtin/credential/ldap/path_login.go';
const LDAPUTIL_CLIENT_GO = 'sdk/helper/ldaputil/client.go';

const enableLdap: Step = { method: 'POST', path: 'sys/auth/ldap', body: { type: 'ldap' } };
const configure = (extra: Record<string, unknown> = {}): Step => ({
  method: 'POST',
  path: 'auth/ldap/config',
  body: {
    url: '<<ldap.url>>',
    binddn: '<<ldap.binddn>>',
    bindpass: '<<ldap.bindpass>>',
    userdn: '<<ldap.userdn>>',
    userattr: 'uid',
    ...extra,
  },
});
/** alice of the test directory (test/support/slapd.ts USERS). */
const loginAlice: Step = { method: 'POST', path: 'auth/ldap/login/alice', token: 'none', body: { password: 'alice-pw' } };
/** The token captured as `login` renews itself. */
const renewLogin: Step = { method: 'POST', path: 'auth/token/renew-self', token: { captured: 'login' }, body: {} };

/**
 * Groups named both ways alice's group `admins` (ou=groups of the test directory, which has no
 * `description`) may be derived: by its CN or by its whole DN; each maps to its own policy.
 */
const adminsByCnAndDn: Step[] = [
  { method: 'POST', path: 'auth/ldap/groups/admins', body: { policies: 'by-cn' } },
  { method: 'POST', path: 'auth/ldap/groups/cn=admins,ou=groups,dc=example,dc=com', body: { policies: 'by-dn' } },
];
const groupsByDescription = { groupdn: '<<ldap.groupdn>>', groupattr: 'description', groupfilter: '(&(cn=admins)(member={{.UserDN}}))' };

export const LDAP_LOGIN_FACTS: readonly Fact[] = [
  {
    says: 'a login answers the auth block as the service shapes it: sanitised policies, metadata, no empty identity_policies',
    source: `${PATH_LOGIN_GO} (pathLogin), builtin/credential/ldap/backend.go (Login: Data an empty map), sdk/logical HTTPAuth (identity_policies omitempty), ${'sdk/helper/policyutil/policyutil.go'} (SanitizePolicies at token creation)`,
    directory: true,
    setup: [enableLdap, configure({ token_policies: 'Dev, ops,Dev', token_ttl: '1h' }), { method: 'POST', path: 'auth/ldap/users/alice', body: { policies: 'oncall' } }],
    request: loginAlice,
    expect: {
      status: 200,
      body: {
        // builtin/credential/ldap/backend.go Login: its response's Data is an empty map.
        data: {},
        auth: {
          client_token: expect.stringMatching(/^hvs\./),
          accessor: expect.any(String),
          policies: ['default', 'dev', 'oncall', 'ops'],
          token_policies: ['default', 'dev', 'oncall', 'ops'],
          metadata: { username: 'alice' },
          lease_duration: 3600,
          renewable: true,
          entity_id: expect.any(String),
          token_type: 'service',
          orphan: true,
          num_uses: 0,
        },
      },
      absent: ['auth.identity_policies'],
    },
  },
  {
    says: 'a login token can renew itself (the default policy)',
    source: `vault/policy_store.go (defaultPolicy), vault/token_store.go (handleRenewSelf)`,
    directory: true,
    setup: [enableLdap, configure({ token_ttl: '1h' }), { ...loginAlice, capture: { login: 'auth.client_token' } }],
    request: { method: 'POST', path: 'auth/token/renew-self', token: { captured: 'login' }, body: {} },
    expect: { status: 200, body: { auth: { client_token: '<<login>>', lease_duration: 3600, renewable: true } } },
  },
  {
    says: 'a renewal of a login token runs the login again and takes its lease from the config as it is now',
    source: `${PATH_LOGIN_GO} (pathLoginRenew: resp.Auth.TTL = cfg.TokenTTL), sdk/framework/lease.go (CalculateTTL)`,
    directory: true,
    setup: [enableLdap, configure({ token_ttl: '1h' }), { ...loginAlice, capture: { login: 'auth.client_token' } }, configure({ token_ttl: '2h' })],
    request: renewLogin,
    expect: { status: 200, body: { auth: { client_token: '<<login>>', lease_duration: 7200, policies: ['default'] } } },
  },
  {
    says: "a renewal is refused when the login's policies changed since it was issued (a local user's policies here)",
    source: `${PATH_LOGIN_GO} (pathLoginRenew: EquivalentPolicies), vault/expiration.go (renewAuthEntry: "failed to renew entry: %w")`,
    directory: true,
    setup: [
      enableLdap,
      configure({ token_ttl: '1h' }),
      { method: 'POST', path: 'auth/ldap/users/alice', body: { policies: 'oncall' } },
      { ...loginAlice, capture: { login: 'auth.client_token' } },
      { method: 'POST', path: 'auth/ldap/users/alice', body: { policies: 'oncall,admin' } },
    ],
    request: renewLogin,
    expect: { status: 500, body: { errors: ['1 error occurred:\n\t* failed to renew entry: policies have changed, not renewing\n\n'] } },
  },
  {
    says: 'a renewal compares token_policies as written with the token\'s lower-cased ones: `Dev` never renews',
    source: `${PATH_LOGIN_GO} (pathLoginRenew: finalPolicies := cfg.TokenPolicies), sdk/helper/policyutil/policyutil.go (EquivalentPolicies)`,
    directory: true,
    setup: [enableLdap, configure({ token_policies: 'Dev', token_ttl: '1h' }), { ...loginAlice, capture: { login: 'auth.client_token' } }],
    request: renewLogin,
    expect: { status: 500, body: { errors: ['1 error occurred:\n\t* failed to renew entry: policies have changed, not renewing\n\n'] } },
  },
  {
    says: 'a renewal binds as the user again: once the config no longer lets alice bind, it is refused as invalid credentials (400)',
    source: `${PATH_LOGIN_GO} (pathLoginRenew: b.Login), builtin/credential/ldap/backend.go (Login: logical.ErrInvalidCredentials), vault/expiration.go (renewAuthEntry)`,
    directory: true,
    setup: [enableLdap, configure({ token_ttl: '1h' }), { ...loginAlice, capture: { login: 'auth.client_token' } }, configure({ userdn: 'ou=nobody,dc=example,dc=com' })],
    request: renewLogin,
    expect: { status: 400, body: { errors: ['1 error occurred:\n\t* failed to renew entry: invalid credentials\n\n'] } },
  },
  {
    says: 'a userfilter naming a field the template context lacks is accepted at write and fails the login',
    source: 'sdk/helper/ldaputil/config.go (NewConfigEntry only parses), the template runs at login',
    directory: true,
    setup: [enableLdap, configure({ userfilter: '(uid={{.Nope}})' })],
    request: loginAlice,
    expect: { status: 400, body: { errors: [expect.stringContaining('ldap operation failed')] } },
  },
  {
    says: 'a group entry without groupattr is named by the CN of its own DN (cn in any case on a new config)',
    source: `${LDAPUTIL_CLIENT_GO} (GetLdapGroups "use self", getCN strings.EqualFold)`,
    directory: true,
    setup: [enableLdap, configure(groupsByDescription), ...adminsByCnAndDn],
    request: loginAlice,
    expect: { status: 200, body: { auth: { policies: ['by-cn', 'default'] } } },
  },
  {
    says: 'with use_pre111_group_cn_behavior only a type written CN is taken: `cn=admins,...` is named by the whole DN',
    source: `${LDAPUTIL_CLIENT_GO} (getCN rdnAttr.Type == "CN"), sdk/helper/ldaputil/config.go (use_pre111_group_cn_behavior)`,
    directory: true,
    setup: [enableLdap, configure({ ...groupsByDescription, use_pre111_group_cn_behavior: true }), ...adminsByCnAndDn],
    request: loginAlice,
    expect: { status: 200, body: { auth: { policies: ['by-dn', 'default'] } } },
  },
];
