import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Address } from '../../../../src/core/address.js';
import type { JsonObject, JsonValue } from '../../../../src/core/json.js';
import type { Change } from '../../../../src/core/plan.js';
import type { DesiredState } from '../../../../src/core/resource.js';
import { Secret } from '../../../../src/core/secret.js';
import { openDirectory, type ReadScope } from '../../../../src/kinds/ldap-auth/access-review/directory.js';
import { reviewLdapAccess, type DirectoryReader } from '../../../../src/kinds/ldap-auth/access-review/review.js';
import { ldapConfigDefaults } from '../../../../src/kinds/ldap-auth/normalise.js';
import { change } from '../../../core/builders.js';
import { ldapEntriesFor, ldapSettingsFor, startSlapd, type Slapd } from '../../../support/slapd.js';

/**
 * A change of local mappings alone reads only the users it can reach (affected-users.ts): the
 * same access changes as reading every user, over generated mapping changes, on a real slapd
 * whose groups hold members as DNs (groupOfNames, groupOfUniqueNames, one written in another
 * case and spacing than the entry's DN, one naming no entry, one an entry outside userdn), as
 * names (posixGroup memberUid, one in another case), users in several groups and in none, a
 * group name in capitals, local users with groups, and local users and groups the directory
 * does not have.
 */
const suffix = 'dc=example,dc=com';
let slapd: Slapd;
beforeAll(async () => {
  slapd = await startSlapd({
    ldif:
      ldapEntriesFor(suffix, {
        users: ['amy', 'ben', 'cleo', 'Drew', 'eve', 'finn', 'gil'].map((uid) => ({ uid, cn: `${uid} Person`, password: 'x' })),
        groups: [
          { cn: 'crew', members: ['amy', 'ben', 'alice'] },
          { cn: 'Night', memberUids: ['eve', 'amy', 'GIL'] },
        ],
      }) +
      `dn: cn=Bridge,ou=groups,${suffix}
objectClass: groupOfNames
cn: Bridge
member: UID=cleo, OU=People,${suffix}
member: cn=nobody,ou=people,${suffix}

dn: cn=deck,ou=groups,${suffix}
objectClass: groupOfUniqueNames
cn: deck
uniqueMember: uid=ben,ou=people,${suffix}
uniqueMember: uid=Drew,ou=people,${suffix}

dn: cn=outside,ou=groups,${suffix}
objectClass: groupOfNames
cn: outside
member: cn=svc,ou=system,${suffix}

`,
  });
});
afterAll(async () => slapd?.stop());

const method = new Address('east', 'auth/ldap');
// The directory's own groups too (the test directory's: admins, Developers, the posixGroup ops, paula's 30 paged groups).
const GROUPS = ['crew', 'night', 'Night', 'bridge', 'Bridge', 'deck', 'ops', 'developers', 'admins', 'paged-07', 'outside', 'ghost'];
const USERS = ['amy', 'ben', 'drew', 'Drew', 'finn', 'gil', 'zed', 'alice', 'dave', 'paula'];
const POLICIES = ['p1', 'p2', 'p3'];

interface Side {
  groups: Record<string, string[]>;
  users: Record<string, { policies: string[]; groups: string[] }>;
}

const policiesArb = fc.subarray(POLICIES, { minLength: 1 });
const sideArb: fc.Arbitrary<Side> = fc.record({
  groups: fc.dictionary(fc.constantFrom(...GROUPS), policiesArb, { maxKeys: 5 }),
  users: fc.dictionary(fc.constantFrom(...USERS), fc.record({ policies: fc.subarray(POLICIES), groups: fc.subarray(GROUPS, { maxLength: 2 }) }), { maxKeys: 3 }),
});

function configOf(extra: JsonObject): JsonObject {
  const s = ldapSettingsFor(slapd);
  return { ...ldapConfigDefaults(), url: s.url, binddn: s.binddn, userdn: s.userdn, userattr: 'uid', groupdn: s.groupdn, ...extra };
}

/** The plan's input: `before` observed on the server, the changes that make it `after`. */
function inputOf(config: JsonObject, before: Side, after: Side) {
  const observed: Record<string, JsonValue | null> = { 'east:auth/ldap/config': config };
  const changes: Change[] = [];
  // As the server answers them: a group {policies}, a user {policies, groups}.
  const objects = (side: Side) => ({
    groups: Object.fromEntries(Object.entries(side.groups).map(([name, policies]) => [name, { policies }])) as Record<string, JsonObject>,
    users: side.users as Record<string, JsonObject>,
  });
  const [was_, is_] = [objects(before), objects(after)];
  for (const [collection, type] of [['groups', 'ldap.group'], ['users', 'ldap.user']] as const) {
    for (const [name, value] of Object.entries(was_[collection])) observed[`east:auth/ldap/${collection}/${name}`] = value;
    for (const name of new Set([...Object.keys(was_[collection]), ...Object.keys(is_[collection])])) {
      const was = was_[collection][name] ?? null;
      const is = is_[collection][name] ?? null;
      if (JSON.stringify(was) === JSON.stringify(is)) continue;
      const action = was === null ? 'create' : is === null ? 'delete' : 'update';
      changes.push(change({ address: new Address('east', `auth/ldap/${collection}/${name}`), action, resourceType: type, before: was, after: is }));
    }
  }
  const desired: DesiredState = {
    resources: [{ address: method.child('config'), resourceType: 'ldap.config', attrs: config, writeOnly: { bindpass: new Secret(ldapSettingsFor(slapd).bindpass, 'env:LDAP_BINDPASS') }, sensitiveFields: ['bindpass'], dependsOn: [] }],
    collections: [],
  };
  return { desired, observed, changes };
}

/** A reader that reads every user, whatever the review asks; and one that reads as asked, noting which users it read. */
const everyone: DirectoryReader = (c, s) => openDirectory(c, s, { kind: 'everyone' });
function asAsked(scopes: Array<ReadScope['kind']>): DirectoryReader {
  return async (c, s, scope) => {
    const read = await openDirectory(c, s, scope);
    scopes.push((await read.scope) ?? 'everyone');
    return read;
  };
}

describe('reading only the users a change of mappings can reach gives what reading every user gives', () => {
  const targetable: Array<[string, JsonObject]> = [
    ['the default group filter (memberUid, member, uniqueMember)', {}],
    ['member DNs only', { groupfilter: '(member={{.UserDN}})' }],
    ['memberUid names only, case-sensitive names', { groupfilter: '(memberUid={{.Username}})', case_sensitive_names: true }],
    ['a user filter with a class, uniqueMember or memberUid', { userfilter: '(&(objectClass=inetOrgPerson)(uid={{.Username}}))', groupfilter: '(|(uniqueMember={{.UserDN}})(memberUid={{.Username}}))' }],
  ];
  it.each(targetable)('%s', async (_what, extra) => {
    const config = configOf(extra);
    let withChanges = 0;
    await fc.assert(
      fc.asyncProperty(sideArb, sideArb, async (before, after) => {
        const input = inputOf(config, before, after);
        const scopes: Array<ReadScope['kind']> = [];
        const targeted = await reviewLdapAccess(input, asAsked(scopes));
        const full = await reviewLdapAccess(input, everyone);
        expect(targeted.skipped).toEqual([]);
        expect(targeted.accessChanges).toEqual(full.accessChanges);
        if (input.changes.length > 0) expect(scopes.at(-1)).toBe('affected');
        if (full.accessChanges.length > 0) withChanges++;
      }),
      { seed: 236, numRuns: 20 },
    );
    // The runs are not all empty reviews: most change someone's policies.
    expect(withChanges).toBeGreaterThan(10);
  });

  it('a group filter the listing does not stand for, a case-exact name attribute, and a change of token_policies read every user', async () => {
    const before: Side = { groups: { crew: ['p1'] }, users: {} };
    const after: Side = { groups: { crew: ['p2'] }, users: {} };
    const scopes: Array<ReadScope['kind']> = [];
    const andFilter = inputOf(configOf({ groupfilter: '(&(objectClass=groupOfNames)(member={{.UserDN}}))' }), before, after);
    const result = await reviewLdapAccess(andFilter, asAsked(scopes));
    expect(result.skipped).toEqual([]);
    expect(result.accessChanges).toEqual([
      { method, policy: 'p1', gained: [], lost: ['alice', 'amy', 'ben'] },
      { method, policy: 'p2', gained: ['alice', 'amy', 'ben'], lost: [] },
    ]);
    expect(scopes).toEqual(['everyone']);

    // A name attribute whose equality is case-exact (inetorgperson.schema's labeledURI): a local
    // user `fry` is also the local user of `Fry`, which a search for `fry` would not find.
    scopes.length = 0;
    await reviewLdapAccess(inputOf(configOf({ userattr: 'labeledURI' }), before, after), asAsked(scopes));
    expect(scopes).toEqual(['everyone']);

    // token_policies decides every login: the same group change with it changed reads every user.
    const config = configOf({});
    const policiesToo = inputOf(config, before, after);
    const configAfter = { ...config, token_policies: ['base'] };
    policiesToo.changes.push(change({ address: method.child('config'), action: 'update', resourceType: 'ldap.config', before: config, after: configAfter, changedFields: ['token_policies'] }));
    policiesToo.desired.resources[0]!.attrs = configAfter;
    scopes.length = 0;
    const everybody = await reviewLdapAccess(policiesToo, asAsked(scopes));
    expect(scopes).toEqual(['everyone']);
    expect(everybody.accessChanges.find((c) => c.policy === 'base')?.gained).toEqual(['Dave', 'Drew', 'alice', 'amy', 'ben', 'bob', 'carol', 'cleo', 'eve', 'finn', 'gil', 'paula', 'twin1', 'twin2']);
  });
});
