import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { escalationOf, mayEscalate } from '../../src/engine/escalation.js';
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

describe('mayEscalate: the parser is loaded only for a text that can grant sudo or write', () => {
  it('no for read, list, deny, patch and subscribe, and the legacy read and deny', () => {
    expect(mayEscalate('path "secret/*" { capabilities = ["read", "list", "patch", "subscribe"] }\npath "sys/*" { capabilities = ["deny"] }')).toBe(false);
    expect(mayEscalate('path "secret/*" { policy = "read" }\npath "sys/*" { policy = "deny" }')).toBe(false);
  });

  it('yes for the words, in any case, and for any escape (hcl reads "\\u0073udo" as sudo)', () => {
    for (const word of ['sudo', 'create', 'update', 'delete']) expect(mayEscalate(`path "a" { capabilities = ["${word}"] }`)).toBe(true);
    expect(mayEscalate('path "a" { policy = "write" }')).toBe(true);
    expect(mayEscalate('path "a" { capabilities = ["SUDO"] }')).toBe(true);
    const escaped = 'path "sys/health" { capabilities = ["\\u0073udo"] }';
    expect(mayEscalate(escaped)).toBe(true);
    expect(escalationOf(policy(escaped), 'p', touched)).toEqual({ grants: 'sudo', path: 'sys/health' });
  });

  it('a text it says no to grants nothing escalationOf calls out', () => {
    const capability = fc.constantFrom('read', 'list', 'deny', 'patch', 'subscribe', 'create', 'update', 'delete', 'sudo');
    const rule = fc.oneof(
      fc.record({ path: fc.constantFrom('auth/ldap/*', 'auth/+/groups/crew', 'sys/policies/acl/ops', 'sys/health', 'secret/*'), capabilities: fc.uniqueArray(capability, { maxLength: 4 }) }).map(
        ({ path, capabilities }) => `path "${path}" { capabilities = [${capabilities.map((c) => `"${c}"`).join(', ')}] }`,
      ),
      fc.record({ path: fc.constantFrom('auth/ldap/*', 'sys/*'), word: fc.constantFrom('read', 'deny', 'write', 'sudo') }).map(({ path, word }) => `path "${path}" { policy = "${word}" }`),
    );
    fc.assert(
      fc.property(fc.array(rule, { maxLength: 4 }), (rules) => {
        const text = rules.join('\n');
        if (!mayEscalate(text)) expect(escalationOf(policy(text), 'p', touched)).toBeUndefined();
      }),
    );
  });
});
