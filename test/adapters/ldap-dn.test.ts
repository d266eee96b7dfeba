import { describe, expect, it } from 'vitest';
import { escapeDnValue, groupNameOf, parseDn } from '../../src/adapters/ldap/index.js';

describe('DN helpers', () => {
  it('escapes DN special characters, edges and non-ASCII bytes', () => {
    expect(escapeDnValue('alice')).toBe('alice');
    expect(escapeDnValue('a,b+c;d<e>f"g\\h')).toBe('a\\,b\\+c\\;d\\<e\\>f\\"g\\\\h');
    expect(escapeDnValue(' #lead ')).toBe('\\ #lead\\ ');
    expect(escapeDnValue('#x')).toBe('\\#x');
    expect(escapeDnValue('é')).toBe('\\c3\\a9');
  });

  it('parses DNs, including escapes and multi-valued RDNs', () => {
    expect(parseDn('cn=admins,ou=groups,dc=example,dc=com')).toEqual([
      [{ type: 'cn', value: 'admins' }],
      [{ type: 'ou', value: 'groups' }],
      [{ type: 'dc', value: 'example' }],
      [{ type: 'dc', value: 'com' }],
    ]);
    expect(parseDn('CN=Smith\\, John + uid=js , DC=x')).toEqual([
      [
        { type: 'CN', value: 'Smith, John' },
        { type: 'uid', value: 'js' },
      ],
      [{ type: 'DC', value: 'x' }],
    ]);
    expect(parseDn('cn=caf\\c3\\a9')).toEqual([[{ type: 'cn', value: 'café' }]]);
    expect(parseDn('')).toEqual([]);
  });

  it('rejects what is not a DN', () => {
    expect(parseDn('admins')).toBeUndefined();
    expect(parseDn('cn=a,b')).toBeUndefined();
    expect(parseDn('=x')).toBeUndefined();
    expect(parseDn('cn=a\\')).toBeUndefined();
  });

  it('gives the first CN of a DN as a group name, other values as they are', () => {
    expect(groupNameOf('cn=admins,ou=groups,dc=example,dc=com')).toBe('admins');
    expect(groupNameOf('uid=x,cn=outer,dc=y')).toBe('outer');
    expect(groupNameOf('ou=nocn,dc=y')).toBe('ou=nocn,dc=y');
    expect(groupNameOf('Plain Name')).toBe('Plain Name');
    expect(groupNameOf('alice@example.com')).toBe('alice@example.com');
  });
});
