import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { MountPath } from '../../src/core/mount-path.js';

const problem = (text: string): string | undefined => {
  const parsed = MountPath.parse(text);
  return parsed.ok ? undefined : parsed.problem;
};

describe('MountPath', () => {
  test('one segment or more, kept as segments; the sys/auth table key ends in "/"', () => {
    const mount = MountPath.of('team/ldap');
    expect(mount.segments).toEqual(['team', 'ldap']);
    expect(mount.text).toBe('team/ldap');
    expect(mount.tableKey).toBe('team/ldap/');
    expect(MountPath.fromTableKey('a/b/c/')).toEqual({ ok: true, mount: MountPath.of('a/b/c') });
    expect(MountPath.fromTableKey('a')).toMatchObject({ ok: false });
  });

  test("the service's rules: addressable segments, not the token method's, not ending in /tune (vault/auth.go, logical_system_paths.go)", () => {
    for (const ok of ['ldap', 'team/ldap', 'a/b/c', 'tune', 'tokens', 'x/token', 'ä/€']) expect(problem(ok), ok).toBeUndefined();
    expect(problem('')).toBe('must not be empty');
    expect(problem('/ldap')).toMatch(/start or end with "\/"/);
    expect(problem('ldap/')).toMatch(/start or end with "\/"/);
    expect(problem('a//b')).toMatch(/segment "" that must not be empty/);
    expect(problem('a/./b')).toMatch(/segment "\." that/);
    expect(problem('..')).toMatch(/relative path/);
    expect(problem('a b')).toBe('must not contain spaces');
    expect(problem('token')).toMatch(/token method/);
    expect(problem('token/ldap')).toMatch(/token method/);
    expect(problem('team/tune')).toMatch(/tune/);
    expect(problem('a\ufffd')).toMatch(/U\+FFFD/);
    expect(problem('a/\ud800')).toMatch(/lone surrogate/);
  });

  test('overlaps: one lies within the other, segment-wise (never a text prefix)', () => {
    const m = (text: string): MountPath => MountPath.of(text);
    expect(m('team').overlaps(m('team/ldap'))).toBe(true);
    expect(m('team/ldap').overlaps(m('team'))).toBe(true);
    expect(m('team/ldap').overlaps(m('team/ldap'))).toBe(true);
    expect(m('team').overlaps(m('teams/ldap'))).toBe(false);
    expect(m('a/b').overlaps(m('a/c'))).toBe(false);
  });

  test('property: a parsed mount path reads back from its text and its table key', () => {
    const segment = fc.string({ minLength: 1, maxLength: 6, unit: fc.constantFrom(...'abz09-_.%?#é'.split('')) });
    fc.assert(
      fc.property(fc.array(segment, { minLength: 1, maxLength: 4 }), (segments) => {
        const parsed = MountPath.parse(segments.join('/'));
        if (!parsed.ok) return;
        expect(parsed.mount.segments).toEqual(segments);
        expect(MountPath.fromTableKey(parsed.mount.tableKey)).toEqual(parsed);
      }),
    );
  });
});
