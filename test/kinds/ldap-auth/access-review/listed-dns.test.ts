import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { LdapEntry } from '../../../../src/adapters/ldap/index.js';
import { dnsFromListing, listingIsLoginSearch, matchKey, valuesWithSubtypes } from '../../../../src/kinds/ldap-auth/access-review/listed-dns.js';
import { loginSettings } from './login-settings.support.js';

const settings = loginSettings;

const entry = (dn: string, attributes: Record<string, string[]>): LdapEntry => ({ dn, attributes });

describe('listingIsLoginSearch: the listing is the login search with the name a wildcard', () => {
  it.each([
    ['', true],
    ['({{.UserAttr}}={{.Username}})', true],
    ['(&(objectClass=person)(uid={{.Username}}))', true],
    ['(&(objectClass=person)(&(!(ou=x))({{.UserAttr}}={{.Username}})))', true],
    // The name elsewhere than one equality on userattr under ANDs: the login's search decides.
    ['(|(uid={{.Username}})(mail={{.Username}}))', false],
    ['(&(uid={{.Username}})(mail={{.Username}}@x))', false],
    ['(!(uid={{.Username}}))', false],
    ['(cn={{.Username}})', false],
    ['(uid={{.Username}}*)', false],
    ['(uid=x{{.Username}})', false],
    ['(uid={{.Username}}', false],
  ])('%s → %s', (userfilter, expected) => {
    expect(listingIsLoginSearch(settings({ userfilter }))).toBe(expected);
  });

  it('not without a search for the user, with upndomain, or with aliases dereferenced', () => {
    expect(listingIsLoginSearch(settings({ binddn: '', bindpass: '' }))).toBe(false);
    expect(listingIsLoginSearch(settings({ binddn: '', bindpass: '', discoverdn: true }))).toBe(true);
    expect(listingIsLoginSearch(settings({ upndomain: 'example.com' }))).toBe(false);
    expect(listingIsLoginSearch(settings({ dereference_aliases: 'always' }))).toBe(false);
  });
});

describe('dnsFromListing', () => {
  it('decides a name only when no other listed value could match it under a string matching rule', () => {
    const dns = dnsFromListing(
      [
        entry('uid=fry,ou=a', { uid: ['fry'] }),
        entry('uid=Dave,ou=a', { uid: ['Dave'] }),
        entry('uid=dave,ou=b', { uid: ['dave'] }),
        entry('uid=strasse,ou=a', { uid: ['strasse'] }),
        entry('uid=straße,ou=b', { uid: ['STRAßE'] }),
        entry('uid=a-b,ou=a', { uid: ['a-b'] }),
        entry('uid=a b,ou=a', { uid: ['A  b'] }),
        entry('uid=two,ou=a', { uid: ['two', 'deux'] }),
        entry('uid=lang,ou=a', { uid: ['lang'], 'UID;x-tag': ['fry2'] }),
        entry('uid=fry2,ou=a', { uid: ['fry2'] }),
      ],
      'uid',
    );
    expect(Object.fromEntries(dns!)).toEqual({ fry: 'uid=fry,ou=a', two: 'uid=two,ou=a', deux: 'uid=two,ou=a', lang: 'uid=lang,ou=a' });
  });

  it('one entry holding a name twice is found once', () => {
    expect(dnsFromListing([entry('uid=x,ou=a', { uid: ['x', 'X'] })], 'uid')?.get('x')).toBe('uid=x,ou=a');
  });

  it('decides nothing when an entry shows no userattr value (it matched by one it does not show)', () => {
    expect(dnsFromListing([entry('uid=fry,ou=a', { uid: ['fry'] }), entry('uid=hidden,ou=a', {})], 'uid')).toBeUndefined();
  });

  it('matchKey folds case (ß as ss), compatibility forms, accents, spaces and punctuation', () => {
    expect(matchKey('STRAßE')).toBe(matchKey('strasse'));
    expect(matchKey('ﬁle')).toBe(matchKey('FILE'));
    expect(matchKey('Ärger')).toBe(matchKey('arger'));
    expect(matchKey(' +1 555-0100 ')).toBe(matchKey('15550100'));
    expect(matchKey('fry')).not.toBe(matchKey('fry2'));
  });

  it("matchKey's ASCII path gives the key of the full preparation", () => {
    const full = (v: string) => v.normalize('NFKC').toUpperCase().toLowerCase().normalize('NFKD').replace(/[^\p{L}\p{N}]/gu, '');
    fc.assert(
      fc.property(fc.string({ unit: fc.integer({ min: 0, max: 0x7f }).map((c) => String.fromCharCode(c)) }), (v) => {
        expect(matchKey(v)).toBe(full(v));
      }),
    );
  });
});

describe('valuesWithSubtypes: the values an equality on the attribute compares', () => {
  it('the attribute in any case and its subtypes, in the entry\'s order; not an attribute that only starts alike', () => {
    const e = entry('uid=a,dc=x', { UID: ['a'], uidNumber: ['7'], 'uid;x-old': ['b'], cn: ['c'], 'Uid;lang-de': ['d'] });
    expect(valuesWithSubtypes(e, ['uid'])).toEqual(['a', 'b', 'd']);
    expect(valuesWithSubtypes(e, ['cn', 'uidnumber'])).toEqual(['7', 'c']);
    expect(valuesWithSubtypes(e, ['member'])).toEqual([]);
    // One attribute's list as it is, not copied; several joined into a new list, the entry unchanged.
    expect(valuesWithSubtypes(e, ['cn'])).toBe(e.attributes['cn']);
    expect(e.attributes['UID']).toEqual(['a']);
  });
});
