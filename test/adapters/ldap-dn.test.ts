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

  it('gives the first CN of a DN as a group name, other values as they are (ldaputil client.go getCN)', () => {
    for (const pre111 of [false, true]) {
      expect(groupNameOf('CN=admins,OU=groups,DC=example,DC=com', pre111)).toBe('admins');
      expect(groupNameOf('uid=x,CN=outer,dc=y', pre111)).toBe('outer');
      expect(groupNameOf('ou=nocn,dc=y', pre111)).toBe('ou=nocn,dc=y');
      expect(groupNameOf('Plain Name', pre111)).toBe('Plain Name');
      expect(groupNameOf('alice@example.com', pre111)).toBe('alice@example.com');
      expect(groupNameOf('', pre111)).toBe('');
    }
  });

  it('takes a cn in any case, but with use_pre111_group_cn_behavior only one written CN', () => {
    expect(groupNameOf('cn=admins,ou=groups,dc=example,dc=com', false)).toBe('admins');
    expect(groupNameOf('Cn=admins,ou=groups', false)).toBe('admins');
    expect(groupNameOf('cn=admins,ou=groups,dc=example,dc=com', true)).toBe('cn=admins,ou=groups,dc=example,dc=com');
    expect(groupNameOf('Cn=admins,CN=outer', true)).toBe('outer');
  });
});
