import { describe, expect, it } from 'vitest';
import { Address } from '../../../src/core/address.js';
import type { DesiredState } from '../../../src/core/resource.js';
import { Secret } from '../../../src/core/secret.js';
import type { LoginDirectorySettings } from '../../../src/adapters/ldap/index.js';
import { enumerationFilter } from '../../../src/kinds/ldap-auth/access-review/login-names.js';
import { affectedBy, mappingsAfter, mappingsBefore } from '../../../src/kinds/ldap-auth/access-review/mappings.js';
import { accessChangesOf, reviewLdapAccess } from '../../../src/kinds/ldap-auth/access-review/review.js';
import { LOGIN_DECIDING_FIELDS, methodsToReview } from '../../../src/kinds/ldap-auth/access-review/triggers.js';
import { ldapConfigDefaults } from '../../../src/kinds/ldap-auth/normalise.js';
import { change } from '../../core/builders.js';
import { loginSettings } from './access-review/login-settings.support.js';

const method = new Address('east', 'auth/ldap');
const at = (path: string) => new Address('east', `auth/ldap/${path}`);

// The login's default user filter, as the service's config gives it.
const settings = (s: Partial<LoginDirectorySettings> = {}): LoginDirectorySettings => loginSettings({ userfilter: '({{.UserAttr}}={{.Username}})', ...s });

describe('which changes are reviewed (builtin/credential/ldap/backend.go Login: what decides the policies)', () => {
  it('groups and users always; the config only for a field the login reads to find users, groups or policies', () => {
    const config = (fields: string[]) => change({ address: at('config'), action: 'update', resourceType: 'ldap.config', changedFields: fields });
    expect(methodsToReview([config(['token_ttl', 'url'])])).toEqual([]);
    for (const field of ['groupfilter', 'groupdn', 'groupattr', 'userattr', 'userdn', 'upndomain', 'userfilter', 'case_sensitive_names', 'use_token_groups', 'token_policies', 'token_no_default_policy', 'discoverdn', 'deny_null_bind']) {
      expect(LOGIN_DECIDING_FIELDS.has(field), field).toBe(true);
      expect(methodsToReview([config(['token_ttl', field])]).map(String)).toEqual(['east:auth/ldap']);
    }
    const group = change({ address: at('groups/ops'), action: 'delete', resourceType: 'ldap.group' });
    const user = change({ address: new Address('east', 'team/auth/corp/ldap/users/fry'), action: 'create', resourceType: 'ldap.user' });
    expect(methodsToReview([user, group]).map(String)).toEqual(['east:auth/ldap', 'east:team/auth/corp/ldap']);
  });
});

describe('before and after', () => {
  const observed = {
    'east:auth/ldap/config': { token_policies: ['base'] },
    'east:auth/ldap/groups/ops': { policies: ['ops'] },
    'east:auth/ldap/groups/dev': { policies: ['dev'] },
    'east:auth/ldap/users/fry': { policies: ['coffee'], groups: ['ops'] },
    'east:auth/other/groups/ops': { policies: ['elsewhere'] },
    'east:auth/ldap/groups': ['dev', 'ops'],
  };

  it('before is what the plan read under the method; after is it with the changes made', () => {
    const before = mappingsBefore(method, observed);
    expect(before.config).toEqual({ token_policies: ['base'] });
    expect([...before.groups]).toEqual([['ops', ['ops']], ['dev', ['dev']]]);
    expect([...before.users]).toEqual([['fry', { policies: ['coffee'], groups: ['ops'] }]]);
    const after = mappingsAfter(method, before, [
      change({ address: at('groups/ops'), action: 'delete', resourceType: 'ldap.group', before: { policies: ['ops'] } }),
      change({ address: at('groups/qa'), action: 'create', resourceType: 'ldap.group', after: { policies: ['qa'] } }),
      change({ address: at('config'), action: 'update', resourceType: 'ldap.config', after: { token_policies: [] } }),
    ]);
    expect([...after.groups]).toEqual([['dev', ['dev']], ['qa', ['qa']]]);
    expect(after.config).toEqual({ token_policies: [] });
    // Inputs are not mutated.
    expect(before.groups.has('ops')).toBe(true);
  });

  it('a method not yet enabled has no config before: nobody logs in', () => {
    expect(mappingsBefore(method, { 'east:auth/ldap/config': null }).config).toBeUndefined();
  });
});

describe('what a change of mappings alone can reach', () => {
  const side = (groups: Record<string, string[]>, users: Record<string, { policies: string[]; groups: string[] }>) => ({ config: {}, groups: new Map(Object.entries(groups)), users: new Map(Object.entries(users)) });
  it('groups changed, added or deleted; users changed, added, deleted, or naming a changed group (as the login looks it up) on either side', () => {
    const before = side({ ops: ['a'], dev: ['b'], gone: ['c'] }, { fry: { policies: [], groups: ['OPS'] }, amy: { policies: ['x'], groups: [] }, kif: { policies: [], groups: ['dev'] } });
    const after = side({ ops: ['a', 'z'], dev: ['b'], new: ['d'] }, { fry: { policies: [], groups: ['OPS'] }, amy: { policies: ['y'], groups: [] }, kif: { policies: [], groups: ['dev'] }, zoe: { policies: [], groups: ['Gone'] } });
    const insensitive = affectedBy(before, after, false);
    expect([...insensitive.groups].sort()).toEqual(['gone', 'new', 'ops']);
    expect([...insensitive.users].sort()).toEqual(['amy', 'fry', 'zoe']);
    // Case-sensitive: OPS is no local group `ops`; zoe is new anyway.
    expect([...affectedBy(before, after, true).users].sort()).toEqual(['amy', 'zoe']);
  });
});

describe('per policy, who gains and who loses', () => {
  it('compares each user before and after, users sorted', () => {
    const before = new Map([['fry', ['default', 'ops']], ['leela', ['default', 'ops']], ['bender', ['default']]]);
    const after = new Map([['fry', ['default', 'ship']], ['leela', ['default', 'ops', 'ship']], ['amy', ['default']]]);
    expect(accessChangesOf(method, before, after)).toEqual([
      { method, policy: 'default', gained: ['amy'], lost: ['bender'] },
      { method, policy: 'ops', gained: [], lost: ['fry'] },
      { method, policy: 'ship', gained: ['fry', 'leela'], lost: [] },
    ]);
  });
});

describe('the directory users one settings give', () => {
  it('the userfilter with every name (the marker made a wildcard); the presence of the name attribute otherwise', () => {
    expect(enumerationFilter(settings())).toBe('(uid=*)');
    expect(enumerationFilter(settings({ userfilter: '(&(objectClass=person)({{.UserAttr}}={{.Username}}))' }))).toBe('(&(objectClass=person)(uid=*))');
    expect(enumerationFilter(settings({ upndomain: 'example.com' }))).toBe('(userPrincipalName=*@example.com)');
    // No search (no bindpass, no discoverdn): users are <userattr>=<name>,<userdn>.
    expect(enumerationFilter(settings({ bindpass: '', userattr: 'cn' }))).toBe('(cn=*)');
  });
});

describe('reviewLdapAccess (the directory given)', () => {
  const configAddress = at('config');
  const desired = (writeOnly: Record<string, Secret | string>, attrs = {}): DesiredState => ({
    resources: [{ address: configAddress, resourceType: 'ldap.config', attrs: { ...ldapConfigDefaults(), binddn: 'cn=svc', ...attrs }, writeOnly, sensitiveFields: ['bindpass'], dependsOn: [] }],
    collections: [],
  });
  const groupChange = change({ address: at('groups/crew'), action: 'create', resourceType: 'ldap.group', after: { policies: ['ship'] } });
  const observed = { 'east:auth/ldap/config': { ...ldapConfigDefaults(), binddn: 'cn=svc' } };

  it('reads the directory once when only mappings change, with the bind password of the manifest', async () => {
    const reads: LoginDirectorySettings[] = [];
    const result = await reviewLdapAccess({ desired: desired({ bindpass: new Secret('pw', 'env:LDAP_BINDPASS') }), observed, changes: [groupChange] }, async (_c, s) => {
      reads.push(s);
      return { users: Promise.resolve(new Map([['fry', ['crew']], ['Zapp', ['CREW']], ['kif', []], ['twin', null]])) };
    });
    expect(reads).toHaveLength(1);
    expect(reads[0]!.bindpass).toBe('pw');
    expect(result).toEqual({ reviewed: [method], skipped: [], accessChanges: [{ method, policy: 'ship', gained: ['Zapp', 'fry'], lost: [] }] });
  });

  it('users in the same groups get the same policies, except that a local user adds its own', async () => {
    const withFry = { ...observed, 'east:auth/ldap/groups/crew': { policies: ['ship'] }, 'east:auth/ldap/users/fry': { policies: ['coffee'], groups: [] } };
    const fryChange = change({ address: at('users/fry'), action: 'update', resourceType: 'ldap.user', before: { policies: ['coffee'], groups: [] }, after: { policies: ['tea'], groups: [] } });
    const crewChange = change({ address: at('groups/crew'), action: 'update', resourceType: 'ldap.group', before: { policies: ['ship'] }, after: { policies: ['ship', 'deck'] } });
    // FRY logs in as the local user fry (names are case-insensitive); the others are in FRY's groups.
    const directory = async () => ({ users: Promise.resolve(new Map<string, readonly string[] | null>([['leela', ['crew']], ['FRY', ['crew']], ['amy', ['crew']], ['bender', ['crew']]])) });
    const result = await reviewLdapAccess({ desired: desired({ bindpass: new Secret('pw', 'env:LDAP_BINDPASS') }), observed: withFry, changes: [fryChange, crewChange] }, directory);
    expect(result.accessChanges).toEqual([
      { method, policy: 'coffee', gained: [], lost: ['FRY'] },
      { method, policy: 'deck', gained: ['FRY', 'amy', 'bender', 'leela'], lost: [] },
      { method, policy: 'tea', gained: ['FRY'], lost: [] },
    ]);
  });

  it('skips, saying why, when the bind password is not in the manifests; a directory error is the reason', async () => {
    const none = await reviewLdapAccess({ desired: { resources: [], collections: [] }, observed, changes: [groupChange] }, () => Promise.reject(new Error('not called')));
    expect(none.skipped).toEqual([{ method, reason: expect.stringContaining('bind password is not in the manifests') }]);
    const down = await reviewLdapAccess({ desired: desired({ bindpass: new Secret('pw', 'env:LDAP_BINDPASS') }), observed, changes: [groupChange] }, () => Promise.reject(new Error('connection refused')));
    expect(down).toEqual({ reviewed: [], accessChanges: [], skipped: [{ method, reason: 'connection refused' }] });
    // Reached, then stopped while reading (a size limit, say): skipped with that reason.
    const stopped = await reviewLdapAccess({ desired: desired({ bindpass: new Secret('pw', 'env:LDAP_BINDPASS') }), observed, changes: [groupChange] }, async () => ({ users: Promise.reject(new Error('size limit exceeded')) }));
    expect(stopped).toEqual({ reviewed: [], accessChanges: [], skipped: [{ method, reason: 'size limit exceeded' }] });
    // A method configured on neither side logs nobody in before or after: nothing to read.
    const unconfigured = await reviewLdapAccess({ desired: { resources: [], collections: [] }, observed: { 'east:auth/ldap/config': null }, changes: [groupChange] }, () => Promise.reject(new Error('not called')));
    expect(unconfigured).toEqual({ reviewed: [], accessChanges: [], skipped: [] });
  });

  it('reaches the directory before it walks the plan\'s objects: a directory out of reach costs no mappings', async () => {
    const walked: string[] = [];
    // The mappings list every object the plan read; the config alone is read by its key.
    const watched = new Proxy(observed, { ownKeys: (target) => (walked.push('walked'), Reflect.ownKeys(target)) });
    const down = await reviewLdapAccess({ desired: desired({ bindpass: new Secret('pw', 'env:LDAP_BINDPASS') }), observed: watched, changes: [groupChange] }, () => Promise.reject(new Error('connection refused')));
    expect(down.skipped).toHaveLength(1);
    expect(walked).toEqual([]);
    const up = await reviewLdapAccess({ desired: desired({ bindpass: new Secret('pw', 'env:LDAP_BINDPASS') }), observed: watched, changes: [groupChange] }, async () => {
      expect(walked).toEqual([]);
      return { users: Promise.resolve(new Map([['fry', ['crew']]])) };
    });
    expect(up.accessChanges).toEqual([{ method, policy: 'ship', gained: ['fry'], lost: [] }]);
    expect(walked).toEqual(['walked']);
  });
});
