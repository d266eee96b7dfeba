import { describe, expect, it } from 'vitest';
import { defaultLdapConfig, type LdapConfig } from '../../../src/server/ldap/config.js';
import { canonicalName, loginPolicies, ROOT_REFUSED } from '../../../src/server/ldap/policies.js';

const localGroups: Record<string, string[]> = {
  admins: ['admin', 'audit'],
  developers: ['dev'],
  Developers: ['dev-exact'],
  oncall: ['pager'],
  sudoers: ['root'],
};
const lookup = (name: string) => localGroups[name];

function cfg(overrides: Partial<LdapConfig> = {}): LdapConfig {
  return { ...defaultLdapConfig(), ...overrides };
}

describe('loginPolicies', () => {
  it('unites local-group policies of LDAP and local groups, the user policies, token_policies and default', () => {
    const out = loginPolicies(
      cfg({ token_policies: ['Base', ' team '] }),
      'Alice',
      ['Developers', 'admins'],
      { policies: ['personal'], groups: ['oncall'] },
      lookup,
    );
    expect(out).toEqual({
      policies: ['admin', 'audit', 'base', 'default', 'dev', 'pager', 'personal', 'team'],
      canonicalName: 'alice',
    });
  });

  it('token_no_default_policy leaves out default; nothing at all gives an empty list', () => {
    expect(loginPolicies(cfg({ token_no_default_policy: true }), 'bob', [], undefined, lookup)).toEqual({
      policies: [],
      canonicalName: 'bob',
    });
    expect(loginPolicies(cfg(), 'bob', ['unknown-group'], undefined, lookup)).toEqual({
      policies: ['default'],
      canonicalName: 'bob',
    });
  });

  it('case_sensitive_names keeps the canonical name and group names as given', () => {
    const sensitive = cfg({ case_sensitive_names: true, token_no_default_policy: true });
    expect(loginPolicies(sensitive, 'Alice', ['Developers'], undefined, lookup)).toEqual({
      policies: ['dev-exact'],
      canonicalName: 'Alice',
    });
    const insensitive = cfg({ token_no_default_policy: true });
    expect(loginPolicies(insensitive, 'Alice', ['Developers'], undefined, lookup)).toEqual({
      policies: ['dev'],
      canonicalName: 'alice',
    });
    expect(canonicalName(sensitive, 'MiXed')).toBe('MiXed');
    expect(canonicalName(insensitive, 'MiXed')).toBe('mixed');
  });

  it('refuses root from any source', () => {
    expect(loginPolicies(cfg(), 'alice', ['sudoers'], undefined, lookup)).toEqual({ error: ROOT_REFUSED });
    expect(loginPolicies(cfg({ token_policies: ['ROOT'] }), 'alice', [], undefined, lookup)).toEqual({ error: ROOT_REFUSED });
    expect(loginPolicies(cfg(), 'alice', [], { policies: ['root'], groups: [] }, lookup)).toEqual({ error: ROOT_REFUSED });
  });
});
