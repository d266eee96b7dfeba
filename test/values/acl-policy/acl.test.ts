import { describe, expect, it } from 'vitest';
import { allowOperation, buildAcl, capabilitiesOf, parseAclPolicy, type Acl, type NamedPolicy, type Operation } from '../../../src/values/acl-policy/index.js';

// Allow or deny as vault/acl.go decides (NewACL, AllowOperation, CheckAllowedFromNonExactPaths,
// valueInAllowedParameterList / valueInDeniedParameterList), from rules vault/policy.go parsed.

function acl(...texts: string[]): Acl {
  return buildAcl(
    texts.map((text, i): NamedPolicy => {
      const result = parseAclPolicy(text);
      if (result.kind !== 'parsed') throw new Error(JSON.stringify(result.errors));
      return { name: `p${i}`, policy: result.policy };
    }),
  );
}

const allows = (a: Acl, path: string, operation: Operation, data?: Record<string, unknown>): boolean =>
  allowOperation(a, { path, operation, data }).allowed;

describe('allowOperation (vault/acl.go)', () => {
  it('an exact rule first, else the longest prefix glob; nothing matching is denied', () => {
    const a = acl(`
path "secret/*" { capabilities = ["read"] }
path "secret/app/*" { capabilities = ["update"] }
path "secret/app/x" { capabilities = ["delete"] }
`);
    expect(allows(a, 'secret/other', 'read')).toBe(true);
    expect(allows(a, 'secret/app/y', 'read')).toBe(false);
    expect(allows(a, 'secret/app/y', 'update')).toBe(true);
    expect(allows(a, 'secret/app/x', 'update')).toBe(false);
    expect(allows(a, 'secret/app/x', 'delete')).toBe(true);
    expect(allows(a, 'secret', 'read')).toBe(false);
    expect(allows(a, 'sys/mounts', 'read')).toBe(false);
  });

  it('unites capabilities across policies for one path, and a deny in any clears them', () => {
    const read = 'path "kv/a" { capabilities = ["read"] }';
    const update = 'path "kv/a" { capabilities = ["update"] }';
    const deny = 'path "kv/a" { capabilities = ["deny"] }';
    expect([allows(acl(read, update), 'kv/a', 'read'), allows(acl(read, update), 'kv/a', 'update')]).toEqual([true, true]);
    expect(allows(acl(read, deny), 'kv/a', 'read')).toBe(false);
    expect(allows(acl(deny, update), 'kv/a', 'update')).toBe(false);
    expect(capabilitiesOf(acl(read, update), 'kv/a')).toEqual(['read', 'update']);
    expect(capabilitiesOf(acl(read, deny), 'kv/a')).toEqual(['deny']);
  });

  it('a deny on a more specific path wins over a broader grant, not the other way round', () => {
    const a = acl('path "kv/*" { capabilities = ["read"] }', 'path "kv/secret/*" { capabilities = ["deny"] }');
    expect(allows(a, 'kv/open', 'read')).toBe(true);
    expect(allows(a, 'kv/secret/x', 'read')).toBe(false);
  });

  it('list checks the path without its trailing slash first', () => {
    const a = acl('path "kv/metadata/app" { capabilities = ["list"] }', 'path "kv/*" { capabilities = ["read"] }');
    expect(allows(a, 'kv/metadata/app/', 'list')).toBe(true);
    expect(allows(a, 'kv/metadata/app/', 'read')).toBe(true);
    const glob = acl('path "kv/metadata/ap*" { capabilities = ["list"] }', 'path "kv/metadata/app/*" { capabilities = ["read"] }');
    expect(allows(glob, 'kv/metadata/app/', 'list')).toBe(true);
  });

  it('+ matches one segment; among several matches the priority order of CheckAllowedFromNonExactPaths', () => {
    const a = acl(`
path "kv/+/config" { capabilities = ["read"] }
path "kv/a/+" { capabilities = ["update"] }
path "kv/+/+" { capabilities = ["delete"] }
path "kv/*" { capabilities = ["list"] }
path "kv/a*" { capabilities = ["create"] }
path "kv/+/b/*" { capabilities = ["patch"] }
`);
    // later wildcard or glob wins: kv/a/+ (first + at 5) over kv/+/config (at 3)
    expect(capabilitiesOf(a, 'kv/a/config')).toEqual(['update']);
    // kv/a* (glob at 4) over kv/+/config (+ at 3)
    expect(capabilitiesOf(a, 'kv/ab/config')).toEqual(['create']);
    // fewer + segments wins at the same first position: kv/+/config over kv/+/+
    expect(capabilitiesOf(a, 'kv/zz/config')).toEqual(['read']);
    expect(capabilitiesOf(a, 'kv/zz/other')).toEqual(['delete']);
    // a + rule needs the same segment count unless it ends in *
    expect(capabilitiesOf(a, 'kv/zz/other/deeper')).toEqual(['list']);
    // both start their wildcard at 3 and are prefixes: kv/* has fewer + segments than kv/+/b/*
    expect(capabilitiesOf(a, 'kv/zz/b/c/d')).toEqual(['list']);
    expect(capabilitiesOf(acl('path "kv/+/b/*" { capabilities = ["patch"] }'), 'kv/zz/b/c/d')).toEqual(['patch']);
    // at the same position a non-prefix rule beats a prefix one (kv/+ over kv/*)
    expect(capabilitiesOf(acl('path "kv/+" { capabilities = ["read"] }', 'path "kv/*" { capabilities = ["list"] }'), 'kv/x')).toEqual(['read']);
  });

  it('operations map to capabilities; revoke, renew and rollback need update; help is always allowed', () => {
    const a = acl('path "p" { capabilities = ["update"] }');
    for (const op of ['update', 'revoke', 'renew', 'rollback', 'help'] as const) expect(allows(a, 'p', op)).toBe(true);
    for (const op of ['create', 'read', 'delete', 'list', 'patch'] as const) expect(allows(a, 'p', op)).toBe(false);
  });

  it('sudo gives root privileges; the root policy allows everything', () => {
    expect(allowOperation(acl('path "sys/audit" { capabilities = ["read", "sudo"] }'), { path: 'sys/audit', operation: 'read' }).rootPrivs).toBe(true);
    expect(allowOperation(acl('path "sys/audit" { capabilities = ["read"] }'), { path: 'sys/audit', operation: 'read' }).rootPrivs).toBe(false);
    const root = buildAcl([{ name: 'root', policy: { rules: [] } }]);
    expect(allowOperation(root, { path: 'anything', operation: 'delete' })).toEqual({ allowed: true, rootPrivs: true, isRoot: true });
    expect(capabilitiesOf(root, 'x')).toEqual(['root']);
  });

  it('parameter constraints: required, denied, allowed, globbed values, comma lists, numbers never match', () => {
    const a = acl(`path "p" {
  capabilities = ["create", "update", "delete"]
  allowed_parameters = { "name" = ["dev-*", "ops"] "ttl" = [] "n" = [3] }
  denied_parameters = { "policies" = ["root"] }
  required_parameters = ["name"]
}`);
    expect(allows(a, 'p', 'update', { name: 'dev-1' })).toBe(true);
    expect(allows(a, 'p', 'update', { name: 'prod' })).toBe(false);
    expect(allows(a, 'p', 'update', { name: 'ops,dev-2' })).toBe(true);
    expect(allows(a, 'p', 'update', { name: ['ops', 'prod'] })).toBe(false);
    expect(allows(a, 'p', 'update', { ttl: 5 })).toBe(false); // name is required
    expect(allows(a, 'p', 'update', { name: 'ops', ttl: 5 })).toBe(true);
    expect(allows(a, 'p', 'update', { name: 'ops', n: 3 })).toBe(false);
    expect(allows(a, 'p', 'update', { name: 'ops', other: 1 })).toBe(false);
    expect(allows(a, 'p', 'update', { name: 'ops', policies: 'a,root' })).toBe(false);
    expect(allows(a, 'p', 'delete', { anything: 1 })).toBe(true); // delete checks no parameters
  });

  it('wrapping TTL bounds need a wrapped request within them', () => {
    const a = acl('path "p" { capabilities = ["read"] min_wrapping_ttl = 60 max_wrapping_ttl = "1h" }');
    expect(allowOperation(a, { path: 'p', operation: 'read' }).allowed).toBe(false);
    expect(allowOperation(a, { path: 'p', operation: 'read', wrapTtl: 120 }).allowed).toBe(true);
    expect(allowOperation(a, { path: 'p', operation: 'read', wrapTtl: 7200 }).allowed).toBe(false);
  });

  it('never changes the parsed policies it is built from', () => {
    const parsedA = parseAclPolicy('path "p" { capabilities = ["read"] allowed_parameters = { "a" = ["1"] } }');
    const parsedB = parseAclPolicy('path "p" { capabilities = ["update"] allowed_parameters = { "a" = ["2"] } }');
    if (parsedA.kind !== 'parsed' || parsedB.kind !== 'parsed') throw new Error('parse');
    const before = JSON.stringify([...parsedA.policy.rules[0]!.allowedParameters!]);
    buildAcl([{ name: 'a', policy: parsedA.policy }, { name: 'b', policy: parsedB.policy }]);
    expect(JSON.stringify([...parsedA.policy.rules[0]!.allowedParameters!])).toBe(before);
  });
});
