import { describe, expect, it } from 'vitest';
import { Address } from '../../src/core/address.js';
import { namespaceAddress, namespaceAtAddress, namespaceOf, namespacePathProblem } from '../../src/core/namespace-path.js';

describe('namespace paths', () => {
  it('a namespace is an object in its parent: <parent/>sys/namespaces/<last>', () => {
    expect(namespaceAddress('east', 'team-a').toString()).toBe('east:sys/namespaces/team-a');
    expect(namespaceAddress('east', 'team-a/apps/dev').toString()).toBe('east:team-a/apps/sys/namespaces/dev');
    expect(namespaceAtAddress(new Address('east', 'team-a/apps/sys/namespaces/dev'))).toBe('team-a/apps/dev');
    expect(namespaceAtAddress(new Address('east', 'sys/namespaces/team-a'))).toBe('team-a');
    expect(namespaceAtAddress(new Address('east', 'team-a/sys/auth/ldap'))).toBeUndefined();
    expect(() => namespaceAddress('east', '')).toThrow(/root namespace/);
  });

  it('the namespace of an address ends at its first sys or auth segment', () => {
    expect(namespaceOf(new Address('east', 'auth/ldap/users/a'))).toBe('');
    expect(namespaceOf(new Address('east', 'team-a/apps/auth/corp/sys/users/a'))).toBe('team-a/apps');
    expect(namespaceOf(new Address('east', 'team-a/sys/namespaces/apps'))).toBe('team-a');
  });

  it('names the service accepts (OpenBao helper/namespace/namespace.go Validate and reservedNames)', () => {
    for (const ok of ['team-a', 'team-a/apps', 'Équipe_1.x', 'a@b']) expect(namespacePathProblem(ok), ok).toBeUndefined();
    expect(namespacePathProblem('team-a/sys')).toBe('segment "sys" is reserved by the service and cannot name a namespace');
    for (const reserved of ['root', 'audit', 'auth', 'cubbyhole', 'identity']) expect(namespacePathProblem(reserved)).toMatch(/is reserved/);
    expect(namespacePathProblem('a*')).toBe('segment "a*" must not contain the wildcards "+" or "*"');
    expect(namespacePathProblem('a+b')).toMatch(/wildcards/);
    expect(namespacePathProblem('a b')).toBe('must not contain spaces');
    expect(namespacePathProblem('/a')).toBe('must not start or end with "/"');
    expect(namespacePathProblem('a//b')).toMatch(/empty segments/);
    expect(namespacePathProblem('a/../b')).toMatch(/segment "\.\."/);
    expect(namespacePathProblem('a\u200bb')).toMatch(/must not contain U\+200B/);
  });
});
