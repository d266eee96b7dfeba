import { describe, expect, it } from 'vitest';
import { Address, AddressMap } from '../../src/core/address.js';

const a = (text: string): Address => {
  const parsed = Address.parse(text);
  if (!parsed) throw new Error(`test address does not parse: ${text}`);
  return parsed;
};

describe('Address.parse and toString', () => {
  it.each([
    'east:auth/ldap/config',
    'east:auth/ldap/groups/admins',
    'east:team-a/sys/managed-keys/pkcs11/hsm-signing',
    'east:sys/storage/raft/snapshot-auto/config/hourly',
    'dr_west.2:sys/replication/dr',
  ])('round-trips %s', (text) => {
    const parsed = a(text);
    expect(parsed.toString()).toBe(text);
    expect(String(parsed)).toBe(text);
    expect(`${parsed}`).toBe(text);
    expect(a(parsed.toString()).equals(parsed)).toBe(true);
  });

  it('splits cluster and path at the first colon only', () => {
    const parsed = a('east:auth/ldap/users/a:b');
    expect(parsed.cluster).toBe('east');
    expect(parsed.segments).toEqual(['auth', 'ldap', 'users', 'a:b']);
  });

  it('drops empty segments, so stray slashes do not make a different address', () => {
    expect(a('east:/auth//ldap/').toString()).toBe('east:auth/ldap');
    expect(a('east:/auth//ldap/').equals(a('east:auth/ldap'))).toBe(true);
  });

  it.each([
    ['no colon', 'auth/ldap/config'],
    ['empty text', ''],
    ['empty cluster', ':auth/ldap'],
    ['space in cluster', 'ea st:auth/ldap'],
    ['slash in cluster', 'a/b:auth/ldap'],
    ['a lone colon', ':'],
    ['a URL', 'http://east:8200/v1/auth/ldap'],
  ])('refuses %s', (_why, text) => {
    expect(Address.parse(text)).toBeUndefined();
  });

  it('serialises as its string in JSON', () => {
    expect(JSON.stringify({ at: a('east:auth/ldap') })).toBe('{"at":"east:auth/ldap"}');
  });

  it('freezes its segments', () => {
    const parsed = a('east:auth/ldap');
    expect(Object.isFrozen(parsed.segments)).toBe(true);
  });
});

describe('Address.compare', () => {
  const sorted = (texts: string[]): string[] => texts.map(a).sort(Address.compare).map(String);

  it('orders by cluster first', () => {
    expect(sorted(['west:a', 'east:z/z/z', 'east:a'])).toEqual(['east:a', 'east:z/z/z', 'west:a']);
  });

  it('puts a parent before its children', () => {
    expect(sorted(['east:auth/ldap/config', 'east:auth/ldap', 'east:auth'])).toEqual(['east:auth', 'east:auth/ldap', 'east:auth/ldap/config']);
  });

  it('compares segment by segment, not as strings: a/b sorts before a-b', () => {
    // As strings, "a-b" < "a/b" ('-' is 0x2d, '/' is 0x2f); segment-wise "a" < "a-b".
    expect('east:a-b' < 'east:a/b').toBe(true);
    expect(Address.compare(a('east:a/b'), a('east:a-b'))).toBeLessThan(0);
    expect(sorted(['east:a-b', 'east:a/b/c', 'east:a.b', 'east:a/b', 'east:a'])).toEqual([
      'east:a',
      'east:a/b',
      'east:a/b/c',
      'east:a-b',
      'east:a.b',
    ]);
  });

  it('keeps groups before users and a mount before its objects', () => {
    expect(sorted(['east:auth/ldap/users/alice', 'east:auth/ldap/groups/zeta', 'east:auth/ldap/config', 'east:sys/auth/ldap'])).toEqual([
      'east:auth/ldap/config',
      'east:auth/ldap/groups/zeta',
      'east:auth/ldap/users/alice',
      'east:sys/auth/ldap',
    ]);
  });

  it('is zero exactly for equal addresses, and antisymmetric', () => {
    expect(Address.compare(a('east:x/y'), new Address('east', ['x', 'y']))).toBe(0);
    const pairs: Array<[string, string]> = [
      ['east:a', 'east:a/b'],
      ['east:a/b', 'east:a-b'],
      ['east:b', 'west:a'],
    ];
    for (const [x, y] of pairs) expect(Math.sign(Address.compare(a(x), a(y)))).toBe(-Math.sign(Address.compare(a(y), a(x))));
  });
});

describe('Address.isWithin', () => {
  it('holds for the address itself and anything below it', () => {
    expect(a('east:auth/ldap').isWithin(a('east:auth/ldap'))).toBe(true);
    expect(a('east:auth/ldap/users/alice').isWithin(a('east:auth/ldap'))).toBe(true);
  });

  it('is segment-wise: auth/ldap is not within auth/ld', () => {
    expect(a('east:auth/ldap').isWithin(a('east:auth/ld'))).toBe(false);
    expect(a('east:auth/ldap-2/config').isWithin(a('east:auth/ldap'))).toBe(false);
  });

  it('never holds across clusters or upwards', () => {
    expect(a('west:auth/ldap/config').isWithin(a('east:auth/ldap'))).toBe(false);
    expect(a('east:auth').isWithin(a('east:auth/ldap'))).toBe(false);
  });
});

describe('Address.child', () => {
  it('appends each argument as one segment', () => {
    const mount = a('east:auth/ldap');
    expect(mount.child('groups', 'admins').toString()).toBe('east:auth/ldap/groups/admins');
    expect(mount.child('users', 'bob?x').segments).toEqual(['auth', 'ldap', 'users', 'bob?x']);
  });

  it('#13.1: refuses a name that cannot be one segment, rather than addressing another object', () => {
    const mount = a('east:auth/ldap');
    for (const name of ['a/b', '.', '..', '', 'x\u0000']) expect(() => mount.child('users', name)).toThrow(/cannot address/);
  });

  it('gives the same address as parsing the whole text, from any parent', () => {
    for (const [parent, parts] of [
      ['east:auth/ldap', ['users', 'alice']],
      ['east:', ['sys', 'auth']],
      ['east:team-a', ['auth', 'ldap', 'config']],
    ] as Array<[string, string[]]>) {
      const child = a(parent).child(...parts);
      const parsed = a(`${parent}/${parts.join('/')}`);
      expect(child.toString()).toBe(parsed.toString());
      expect(child.path).toBe(parsed.path);
      expect(child.segments).toEqual(parsed.segments);
      expect(Object.isFrozen(child.segments)).toBe(true);
    }
  });

  it('leaves the parent as it was', () => {
    const mount = a('east:auth/ldap');
    mount.child('config');
    expect(mount.toString()).toBe('east:auth/ldap');
    expect(mount.child('config').cluster).toBe('east');
  });
});

describe('AddressMap', () => {
  it('keys by value, not by object identity', () => {
    const m = new AddressMap<number>();
    m.set(new Address('east', 'auth/ldap'), 1);
    m.set(a('east:auth/ldap'), 2);
    expect(m.size).toBe(1);
    expect(m.get(new Address('east', ['auth', 'ldap']))).toBe(2);
    expect(m.has(a('east:auth//ldap/'))).toBe(true);
    expect(m.has(a('west:auth/ldap'))).toBe(false);
    expect(m.delete(a('east:auth/ldap'))).toBe(true);
    expect(m.size).toBe(0);
    expect(m.get(a('east:auth/ldap'))).toBeUndefined();
  });

  it('lists entries, keys and values in Address order, whatever the insertion order', () => {
    const m = new AddressMap<string>();
    for (const text of ['east:a-b', 'west:a', 'east:a/b', 'east:a']) m.set(a(text), text.toUpperCase());
    expect(m.keys().map(String)).toEqual(['east:a', 'east:a/b', 'east:a-b', 'west:a']);
    expect(m.values()).toEqual(['EAST:A', 'EAST:A/B', 'EAST:A-B', 'WEST:A']);
    expect(m.entries().map(([k, v]) => `${k}=${v}`)).toEqual(['east:a=EAST:A', 'east:a/b=EAST:A/B', 'east:a-b=EAST:A-B', 'west:a=WEST:A']);
  });
});
