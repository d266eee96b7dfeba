import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parseDn } from '../../../../src/adapters/ldap/index.js';
import { matchKey } from '../../../../src/kinds/ldap-auth/access-review/listed-dns.js';
import { groupNamesOf, type LdapEntry } from '../../../../src/adapters/ldap/index.js';
import { dnKey, groupListing, indexGroups } from '../../../../src/kinds/ldap-auth/access-review/listed-groups.js';
import { loginSettings } from './login-settings.support.js';

const settings = loginSettings;

describe('groupListing: one listing stands for every user group search only when exact', () => {
  it('the default filter: its three attributes, each present', () => {
    expect(groupListing(settings())).toEqual({ filter: '(|(memberUid=*)(member=*)(uniqueMember=*))', nameAttributes: ['memberUid'], dnAttributes: ['member', 'uniqueMember'] });
    expect(groupListing(settings({ groupfilter: '(member={{.UserDN}})' }))).toEqual({ filter: '(member=*)', nameAttributes: [], dnAttributes: ['member'] });
  });

  it.each([
    ['an AND with a part that is not the user', '(&(objectClass=groupOfNames)(member={{.UserDN}}))'],
    ['a value around the name', '(memberUid=x-{{.Username}})'],
    ['a substring', '(member=*{{.UserDN}})'],
    ['a constant equality', '(|(member={{.UserDN}})(cn=all))'],
    ['a negation', '(!(member={{.UserDN}}))'],
    ['does not parse', '(member={{.UserDN}}'],
  ])('not for %s', (_, groupfilter) => {
    expect(groupListing(settings({ groupfilter }))).toBeUndefined();
  });

  it('not with tokenGroups, without groupdn, or with aliases dereferenced', () => {
    expect(groupListing(settings({ use_token_groups: true }))).toBeUndefined();
    expect(groupListing(settings({ groupdn: '' }))).toBeUndefined();
    expect(groupListing(settings({ dereference_aliases: 'searching' }))).toBeUndefined();
  });
});

const group = (cn: string, attributes: Record<string, string[]>): LdapEntry => ({ dn: `cn=${cn},ou=groups,dc=x`, attributes: { cn: [cn], ...attributes } });
const listing = groupListing(settings())!;
const fry = 'uid=fry,ou=people,dc=x';
const namesOf = (found: readonly LdapEntry[]) => groupNamesOf(found, 'cn', false);

describe('GroupIndex', () => {
  it('a value byte for byte the name or DN matches; none is no group; one equal only by key is searched for', () => {
    const index = indexGroups(
      [
        group('crew', { member: [fry, 'uid=leela,ou=people,dc=x'] }),
        group('ops', { memberUid: ['fry'] }),
        group('loud', { member: ['UID=Leela, OU=People,dc=x'] }),
        group('other', { uniqueMember: ['uid=bender,ou=people,dc=x'] }),
      ],
      listing,
      namesOf,
    )!;
    expect(index.groupsOf('fry', fry)).toEqual(['crew', 'ops']);
    expect(index.groupsOf('zoidberg', 'uid=zoidberg,ou=people,dc=x')).toEqual([]);
    expect(index.groupsOf('leela', 'uid=leela,ou=people,dc=x')).toBe('search');
  });

  it('memberNames: the names held, and the first RDN values of DNs of that type under the base (a sample for the listing of users)', () => {
    const index = indexGroups(
      [
        group('crew', { member: [fry, 'UID=Leela,OU=People,dc=x', 'cn=Hermes,ou=people,dc=x', 'uid=nibbler,ou=pets,dc=x', 'uid=a\\,b,ou=people,dc=x'] }),
        group('ops', { memberUid: ['amy'] }),
      ],
      listing,
      namesOf,
    )!;
    expect(index.memberNames('uid', 'ou=people,dc=x').sort()).toEqual(['Leela', 'amy', 'fry']);
  });

  it('names the groups in listing order, once per set of groups: users in the same groups share the list', () => {
    const seen: string[][] = [];
    const counting = (found: readonly LdapEntry[]) => {
      seen.push(found.map((e) => e.dn));
      return namesOf(found);
    };
    const index = indexGroups([group('b', { memberUid: ['fry', 'leela'] }), group('a', { memberUid: ['fry', 'leela', 'amy'] })], listing, counting)!;
    const forFry = index.groupsOf('fry', fry);
    expect(forFry).toEqual(['b', 'a']);
    expect(index.groupsOf('leela', 'uid=leela,ou=people,dc=x')).toBe(forFry);
    expect(index.groupsOf('amy', 'uid=amy,ou=people,dc=x')).toEqual(['a']);
    expect(seen).toEqual([
      ['cn=b,ou=groups,dc=x', 'cn=a,ou=groups,dc=x'],
      ['cn=a,ou=groups,dc=x'],
    ]);
  });

  it('an entry matched exactly by one value and loosely by another is a match', () => {
    const index = indexGroups([group('crew', { member: [fry, 'UID=FRY,ou=people,dc=x'] })], listing, namesOf)!;
    expect(index.groupsOf('fry', fry)).toEqual(['crew']);
  });

  it('a DN held nowhere but equal by key to one held is searched for; so is a DN no key can be made for, whatever is held', () => {
    const index = indexGroups([group('loud', { member: ['UID=Fry,ou=people,dc=x'] })], listing, namesOf)!;
    expect(index.groupsOf('fry', fry)).toBe('search');
    const byName = indexGroups([group('ops', { memberUid: ['fry'] })], listing, namesOf)!;
    expect(byName.groupsOf('fry', 'not a dn')).toBe('search');
    expect(byName.groupsOf('FRY', fry)).toBe('search');
  });

  it('groupsOf is what comparing every held value with the name and the DN gives (values byte for byte and by key)', () => {
    const nameVariants = ['fry', 'Fry', 'leela', 'LEELA', 'f-ry'];
    const dnVariants = [fry, 'UID=Fry,ou=people,dc=x', 'uid=leela,ou=people,dc=x', 'uid=leela, ou=People,dc=x', 'uid=amy,ou=people,dc=x'];
    const groupArb = fc.record({ memberUid: fc.subarray(nameVariants), member: fc.subarray(dnVariants), uniqueMember: fc.subarray(dnVariants) });
    fc.assert(
      fc.property(fc.array(groupArb, { minLength: 1, maxLength: 6 }), fc.constantFrom(...nameVariants), fc.constantFrom(...dnVariants), (held, name, dn) => {
        const entries = held.map((attributes, i) => group(`g${i}`, Object.fromEntries(Object.entries(attributes).filter(([, v]) => v.length > 0))));
        const index = indexGroups(entries, listing, namesOf);
        if (entries.some((e) => Object.keys(e.attributes).length === 1)) {
          expect(index).toBeUndefined();
          return;
        }
        const places = held.flatMap((g, i) => (g.memberUid.includes(name) || g.member.includes(dn) || g.uniqueMember.includes(dn) ? [i] : []));
        const loose = held.flatMap((g, i) =>
          g.memberUid.some((v) => v !== name && matchKey(v) === matchKey(name)) || [...g.member, ...g.uniqueMember].some((v) => v !== dn && dnKey(v) === dnKey(dn)) ? [i] : [],
        );
        const expected = loose.some((p) => !places.includes(p)) ? 'search' : namesOf(places.map((p) => entries[p]!));
        expect(index!.groupsOf(name, dn)).toEqual(expected);
      }),
      { numRuns: 2_000 },
    );
  });

  it('no index when a group shows none of the compared attributes, or a DN value cannot be keyed', () => {
    expect(indexGroups([group('hidden', {})], listing, namesOf)).toBeUndefined();
    expect(indexGroups([group('ber', { member: ['cn=#04024869,dc=x'] })], listing, namesOf)).toBeUndefined();
    expect(indexGroups([group('bad', { member: ['not a dn'] })], listing, namesOf)).toBeUndefined();
  });

  it('dnKey: case, spaces, escapes and multi-valued RDN order fold; attribute types are left out', () => {
    expect(dnKey('UID=Fry , OU=People,dc=x')).toBe(dnKey('uid=fry,ou=people,dc=x'));
    expect(dnKey('cn=a\\2cb,dc=x')).toBe(dnKey('cn=a\\,b,dc=x'));
    expect(dnKey('cn=a+sn=b,dc=x')).toBe(dnKey('sn=b+cn=a,dc=x'));
    expect(dnKey('0.9.2342.19200300.100.1.1=fry,dc=x')).toBe(dnKey('uid=fry,dc=x'));
    expect(dnKey('uid=fry,dc=x')).not.toBe(dnKey('uid=fry,dc=y'));
  });

  it("dnKey's path for plain ASCII DNs gives the key parsing gives", () => {
    const parsed = (dn: string) => {
      const rdns = parseDn(dn);
      if (!rdns || rdns.some((rdn) => rdn.some((a) => a.value.startsWith('#')))) return undefined;
      return rdns.map((rdn) => rdn.map((a) => matchKey(a.value)).sort().join('+')).join(',');
    };
    const piece = fc.constantFrom('uid', 'cn', ' ', '=', ',', 'Fry', 'a-b', '0.9.2342', '"', '*', '', 'OU', 'x y');
    fc.assert(
      fc.property(fc.array(piece, { maxLength: 12 }), (pieces) => {
        const dn = pieces.join('');
        expect(dnKey(dn)).toBe(parsed(dn));
      }),
      { numRuns: 20_000 },
    );
  });
});
