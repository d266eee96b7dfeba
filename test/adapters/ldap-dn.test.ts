import fc from 'fast-check';
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

  it('decodes escaped bytes as UTF-8, text as it is, and a lone surrogate as U+FFFD, as the bytes of the text would', () => {
    expect(parseDn('cn=caf\\c3\\a9s,ou=x')).toEqual([[{ type: 'cn', value: 'cafés' }], [{ type: 'ou', value: 'x' }]]);
    expect(parseDn('cn=José 😀')).toEqual([[{ type: 'cn', value: 'José 😀' }]]);
    // An escaped byte that starts a character the text does not finish stands for nothing.
    expect(parseDn('cn=\\c3é')).toEqual([[{ type: 'cn', value: '\uFFFDé' }]]);
    // An escaped character is itself, whole.
    expect(parseDn('cn=\\😀\\é')).toEqual([[{ type: 'cn', value: '😀é' }]]);
    expect(parseDn('cn=a\uD800b')).toEqual([[{ type: 'cn', value: 'a\uFFFDb' }]]);
    expect(parseDn('cn=\uD800\\\uDC00')).toEqual([[{ type: 'cn', value: '\uFFFD\uFFFD' }]]);
    // Unescaped spaces around a value are not part of it; escaped ones are.
    expect(parseDn('cn=  a b  ,ou= x')).toEqual([[{ type: 'cn', value: 'a b' }], [{ type: 'ou', value: 'x' }]]);
    expect(parseDn('cn=\\ a\\ ')).toEqual([[{ type: 'cn', value: ' a ' }]]);
    expect(parseDn('cn=a \\20')).toEqual([[{ type: 'cn', value: 'a  ' }]]);
  });

  it('reads back any value escapeDnValue wrote', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary' }), (value) => {
        expect(parseDn(`cn=${escapeDnValue(value)},ou=x`)).toEqual([[{ type: 'cn', value }], [{ type: 'ou', value: 'x' }]]);
      }),
    );
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
