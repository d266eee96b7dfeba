import { describe, expect, it } from 'vitest';
import { isCapability, parseAclPolicy, serviceMessage, type AclPolicy, type Capability, type PathRule, type PolicyError, type PolicyParse } from '../../../src/values/acl-policy/index.js';

// Policy text read as the service reads it: vault/policy.go (ParseACLPolicy, parsePaths),
// sdk/helper/hclutil/hcl.go (CheckHCLKeys), hashicorp/hcl v1 for the syntax.

function parsed(text: string, namespacePath?: string): AclPolicy {
  const result: PolicyParse = parseAclPolicy(text, { namespacePath });
  if (result.kind !== 'parsed') throw new Error(JSON.stringify(result.errors));
  return result.policy;
}

function errorsOf(text: string): readonly PolicyError[] {
  const result = parseAclPolicy(text);
  if (result.kind !== 'invalid') throw new Error('expected errors');
  return result.errors;
}

describe('parseAclPolicy (vault/policy.go)', () => {
  it('reads path rules in written order: exact, glob prefix, + segments', () => {
    const policy = parsed(`
# a comment
path "secret/data/app" { capabilities = ["read", "list"] }
path "/secret/*" {
  capabilities = ["create", "update", "patch", "subscribe"]
}
path "secret/+/team/*" { capabilities = ["sudo"] }
`);
    expect(policy.rules.map((r) => [r.path, r.isPrefix, r.hasSegmentWildcards, r.capabilities])).toEqual([
      ['secret/data/app', false, false, ['read', 'list']],
      ['secret/', true, false, ['create', 'update', 'patch', 'subscribe']],
      // policy.go keeps the trailing * of a segment-wildcard path (acl.go reads it there)
      ['secret/+/team/*', false, true, ['sudo']],
    ]);
    expect(policy.rules[1]!.position).toEqual({ line: 4, column: 6 });
  });

  it('maps the legacy policy words, and deny ends a rule (nothing after it is read)', () => {
    const policy = parsed(`
path "a" { policy = "read" }
path "b" { policy = "write" }
path "c" { policy = "sudo" capabilities = ["patch"] }
path "d" { policy = "deny" capabilities = ["read"] }
path "e" { capabilities = ["read", "deny", "not-a-capability"] }
`);
    expect(policy.rules.map((r) => r.capabilities)).toEqual([
      ['read', 'list'],
      ['create', 'read', 'update', 'delete', 'list'],
      ['patch', 'create', 'read', 'update', 'delete', 'list', 'sudo'],
      ['deny'],
      ['deny'],
    ]);
  });

  it('accepts what hcl v1 accepts and the HCL2 parsers refuse: JSON policies, ${} in keys, maps without commas', () => {
    expect(parsed('{"path": {"secret/*": {"capabilities": ["read"]}}}').rules[0]!.capabilities).toEqual(['read']);
    expect(parsed('path "secret/${x}/*" { capabilities = ["read"] }').rules[0]!.path).toBe('secret/${x}/');
    const rule: PathRule = parsed(`path "a" {
  capabilities = ["update"]
  allowed_parameters = { "X" = [] "y" = ["1", 2] }
  denied_parameters = { "z" = [] }
  required_parameters = ["y"]
  min_wrapping_ttl = "1m"
  max_wrapping_ttl = 3600
}`).rules[0]!;
    expect(Object.fromEntries(rule.allowedParameters!)).toEqual({ x: [], y: ['1', 2] });
    expect(Object.fromEntries(rule.deniedParameters!)).toEqual({ z: [] });
    expect([rule.requiredParameters, rule.minWrappingTtl, rule.maxWrappingTtl]).toEqual([['y'], 60, 3600]);
  });

  it('puts the namespace path before every rule path', () => {
    expect(parsed('path "kv/*" { capabilities = ["read"] }', 'team/').rules[0]!.path).toBe('team/kv/');
  });

  it('gives a syntax error at hcl v1s line and column, in its words', () => {
    const errors = errorsOf('path "a" {\n  capabilities = ["read"\n}\n');
    expect(errors).toEqual([{ line: 4, column: 1, step: 'syntax', message: 'At 4:1: object expected closing RBRACE got: EOF' }]);
    expect(serviceMessage(errors)).toBe('failed to parse policy: At 4:1: object expected closing RBRACE got: EOF');
    expect(errorsOf('path "a" = { policy = "read" }')[0]!.message).toBe('At 1:10: nested object expected: LBRACE got: ASSIGN');
  });

  it('reports every unknown capability at once, each where it is written, in the services words', () => {
    const errors = errorsOf(`path "a" {
  capabilities = ["read"]
}
path "b" {
  capabilities = ["read", "raed"]
}
path "c" { capabilities = ["write"] }
`);
    expect(errors.map((e) => [e.line, e.column, e.message])).toEqual([
      [5, 27, 'path "b": invalid capability "raed"'],
      [7, 28, 'path "c": invalid capability "write"'],
    ]);
    expect(serviceMessage(errors)).toBe('failed to parse policy: path "b": invalid capability "raed"');
  });

  it('refuses unknown keys as CheckHCLKeys does, top level first', () => {
    const errors = errorsOf(`paths "a" { capabilities = ["read"] }
path "b" {
  capability = ["read"]
}
`);
    expect(errors.map((e) => [e.line, e.column, e.step, e.message])).toEqual([
      [1, 1, 'top-keys', 'invalid key "paths" on line 1'],
      [3, 3, 'rule-keys', 'path "b": invalid key "capability" on line 3'],
    ]);
    expect(serviceMessage(errors)).toBe('failed to parse policy: 1 error occurred:\n\t* invalid key "paths" on line 1\n\n');
  });

  it('refuses a bad legacy word, +*, bad wrapping TTLs', () => {
    const messages = errorsOf(`path "a" { policy = "admin" }
path "b/+*" { capabilities = ["read"] }
path "c" { capabilities = ["read"] min_wrapping_ttl = "1x" }
path "d" { capabilities = ["read"] min_wrapping_ttl = "2h" max_wrapping_ttl = "1h" }
`).map((e) => e.message);
    expect(messages).toEqual([
      'path "a": invalid policy "admin"',
      `path "b/+*": invalid use of wildcards ('+*' is forbidden)`,
      'error parsing min_wrapping_ttl: time: unknown unit "x" in duration "1x"',
      'max_wrapping_ttl cannot be less than min_wrapping_ttl',
    ]);
  });

  it('knows the capabilities policy.go lists, subscribe included, and no other word', () => {
    const all: Capability[] = ['deny', 'create', 'read', 'update', 'delete', 'list', 'sudo', 'patch', 'subscribe'];
    expect(all.every(isCapability)).toBe(true);
    expect(['root', 'write', 'Read', 'admin', 'toString'].some(isCapability)).toBe(false);
  });

  it('reads an empty policy as no rules', () => {
    expect(parsed('').rules).toEqual([]);
    expect(parsed('# nothing\n').rules).toEqual([]);
  });
});
