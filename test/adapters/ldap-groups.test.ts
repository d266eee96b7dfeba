import { describe, expect, it } from 'vitest';
import { groupNamesOf, type LdapEntry } from '../../src/adapters/ldap/index.js';

// sdk/helper/ldaputil/client.go GetLdapGroups: names from the groupattr values, or from the
// entry's own DN when it has none; entries whose DN does not parse are skipped.
const entry = (dn: string, attributes: Record<string, string[]> = {}): LdapEntry => ({ dn, attributes });

describe('groupNamesOf', () => {
  it('names an entry by its groupattr values, or by its own DN when it has none', () => {
    const entries = [
      entry('cn=a,ou=g,dc=x', { description: ['Named A'] }),
      entry('cn=b,ou=g,dc=x'),
      entry('cn=c,ou=g,dc=x', { description: [] }),
      entry('ou=d,ou=g,dc=x'),
      entry('cn=e,ou=g,dc=x', { description: ['cn=E1,dc=x', 'CN=E2,dc=x', 'Named A'] }),
    ];
    expect(groupNamesOf(entries, 'description', false)).toEqual(['Named A', 'b', 'c', 'ou=d,ou=g,dc=x', 'E1', 'E2']);
    expect(groupNamesOf(entries, 'description', true)).toEqual(['Named A', 'cn=b,ou=g,dc=x', 'cn=c,ou=g,dc=x', 'ou=d,ou=g,dc=x', 'cn=E1,dc=x', 'E2']);
  });

  it('skips an entry whose DN does not parse or is empty', () => {
    expect(groupNamesOf([entry('not a dn', { cn: ['x'] }), entry('', { cn: ['y'] }), entry('cn=z')], 'cn', false)).toEqual(['z']);
  });

  it('matches groupattr by the exact name the directory answered with (go-ldap GetAttributeValues)', () => {
    expect(groupNamesOf([entry('cn=a,dc=x', { description: ['Named'] })], 'Description', false)).toEqual(['a']);
    expect(groupNamesOf([entry('cn=a,dc=x', { description: ['Named'] })], 'constructor', false)).toEqual(['a']);
  });
});
