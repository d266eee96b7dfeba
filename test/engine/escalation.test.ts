import { describe, expect, it } from 'vitest';
import { escalationOf } from '../../src/engine/escalation.js';
import { parseAclPolicy, type AclPolicy } from '../../src/values/acl-policy/index.js';

function policy(text: string, namespacePath = ''): AclPolicy {
  const parsed = parseAclPolicy(text, { namespacePath });
  if (parsed.kind !== 'parsed') throw new Error(JSON.stringify(parsed.errors));
  return parsed.policy;
}

const touched = ['auth/ldap/groups/crew', 'sys/policies/acl/ops'];

describe('escalationOf: sudo anywhere, or write without deny on a path the plan touches (vault/acl.go AllowOperation)', () => {
  it.each([
    ['sudo on any path, as written', 'path "sys/health" { capabilities = ["read", "sudo"] }', { grants: 'sudo', path: 'sys/health' }],
    ['a glob rule that writes a touched path', 'path "auth/ldap/*" { capabilities = ["update"] }', { grants: 'write', path: 'auth/ldap/groups/crew' }],
    ['a + segment rule', 'path "auth/+/groups/crew" { capabilities = ["delete"] }', { grants: 'write', path: 'auth/ldap/groups/crew' }],
    ['create counts as write', 'path "sys/policies/acl/ops" { capabilities = ["create"] }', { grants: 'write', path: 'sys/policies/acl/ops' }],
    ['read and list only', 'path "auth/ldap/*" { capabilities = ["read", "list"] }', undefined],
    ['write elsewhere', 'path "secret/*" { capabilities = ["create", "update", "delete"] }', undefined],
    ['a deny on the more specific path', 'path "auth/ldap/*" { capabilities = ["update"] }\npath "auth/ldap/groups/*" { capabilities = ["deny"] }', undefined],
    ['deny and sudo on one path is a deny', 'path "sys/*" { capabilities = ["sudo", "deny"] }', undefined],
    ['a templated path matches no token without an identity', 'path "auth/ldap/groups/{{identity.entity.name}}" { capabilities = ["update"] }', undefined],
  ])('%s', (_, text, expected) => {
    expect(escalationOf(policy(text), 'p', touched)).toEqual(expected);
  });

  it("a namespace's policy: its rules are under the namespace's path, as the touched paths are", () => {
    expect(escalationOf(policy('path "auth/ldap/*" { capabilities = ["update"] }', 'team-a/'), 'p', ['team-a/auth/ldap/groups/crew'])).toEqual({ grants: 'write', path: 'team-a/auth/ldap/groups/crew' });
    expect(escalationOf(policy('path "auth/ldap/*" { capabilities = ["update"] }', 'team-a/'), 'p', ['auth/ldap/groups/crew'])).toBeUndefined();
  });
});
