import { inspect } from 'node:util';
import { describe, expect, it } from 'vitest';
import { Address } from '../../src/core/address.js';
import { isSecret, Secret } from '../../src/core/secret.js';
import { diffResources } from '../../src/diff/diff.js';
import { addrs, deepFreeze, desired, desiredState, east, live, liveState, walk } from '../core/builders.js';

const CANARY = 'canary-bindpass-d1ff';
const OFF = { syncSecrets: false };
const SYNC = { syncSecrets: true };
const bindpass = (): Secret => new Secret(CANARY, 'env:LDAP_BINDPASS');

const CONFIG = east('auth/ldap/config');
const USERS = east('auth/ldap/users');

describe('diffResources: one object', () => {
  it('creates what is missing: before null, after the desired attrs, every field listed, sorted', () => {
    const want = desired(east('auth/ldap/groups/admins'), { policies: ['admin'], name: 'admins' }, { dependsOn: [east('sys/auth/ldap')] });
    const { changes, unmanaged } = diffResources(desiredState([want]), liveState([]), OFF);
    expect(unmanaged).toEqual([]);
    expect(changes).toHaveLength(1);
    expect(changes[0]).toMatchObject({
      action: 'create',
      reason: 'declared',
      resourceType: 'test.object',
      before: null,
      after: { policies: ['admin'], name: 'admins' },
      changedFields: ['name', 'policies'],
      destructive: false,
      guards: [],
      notes: [],
    });
    expect(addrs(changes)).toEqual(['east:auth/ldap/groups/admins']);
    expect(changes[0]!.dependsOn.map(String)).toEqual(['east:sys/auth/ldap']);
  });

  it('#14.3: a policySet field differing only in case, order or repeats is no change; a different set is', () => {
    const want = { ...desired(CONFIG, { token_policies: ['Dev', 'default'] }), comparedAs: { token_policies: 'policySet' as const } };
    const same = live(CONFIG, { token_policies: ['default', 'dev', ' DEV '] });
    expect(diffResources(desiredState([want]), liveState([same]), OFF).changes).toEqual([]);
    const other = live(CONFIG, { token_policies: ['dev'] });
    const [c] = diffResources(desiredState([want]), liveState([other]), OFF).changes;
    expect(c).toMatchObject({ action: 'update', changedFields: ['token_policies'], after: { token_policies: ['Dev', 'default'] } });
  });

  it('updates what differs, listing exactly the differing fields, sorted', () => {
    const want = desired(CONFIG, { url: 'ldaps://b', userattr: 'uid', token_ttl: 3600, binddn: 'cn=svc' });
    const have = live(CONFIG, { url: 'ldap://a', userattr: 'uid', token_ttl: 0, binddn: 'cn=svc' });
    const [c, ...rest] = diffResources(desiredState([want]), liveState([have]), OFF).changes;
    expect(rest).toEqual([]);
    expect(c).toMatchObject({ action: 'update', reason: 'declared', before: have.attrs, after: want.attrs, changedFields: ['token_ttl', 'url'] });
  });

  it('makes no change when every desired field matches', () => {
    const want = desired(CONFIG, { url: 'ldap://a', token_policies: ['default', 'dev'] });
    const have = live(CONFIG, { url: 'ldap://a', token_policies: ['default', 'dev'] });
    expect(diffResources(desiredState([want]), liveState([have]), OFF).changes).toEqual([]);
  });

  it('compares values as JSON: key order inside values does not matter, array order and types do', () => {
    const have = live(CONFIG, { opts: { b: 2, a: 1 }, list: ['a', 'b'], ttl: 3600 });
    const same = desired(CONFIG, { opts: { a: 1, b: 2 }, list: ['a', 'b'], ttl: 3600 });
    expect(diffResources(desiredState([same]), liveState([have]), OFF).changes).toEqual([]);
    const other = desired(CONFIG, { opts: { a: 1, b: 2 }, list: ['b', 'a'], ttl: '3600' });
    expect(diffResources(desiredState([other]), liveState([have]), OFF).changes[0]!.changedFields).toEqual(['list', 'ttl']);
  });

  it('compares only the fields the manifest describes: live-only fields are not drift', () => {
    const want = desired(CONFIG, { url: 'ldap://a' });
    const have = live(CONFIG, { url: 'ldap://a', accessor: 'auth_ldap_1234', extra: true });
    expect(diffResources(desiredState([want]), liveState([have]), OFF).changes).toEqual([]);
  });

  it('counts a desired field the server does not return as a change', () => {
    const want = desired(CONFIG, { url: 'ldap://a', token_type: 'service' });
    const have = live(CONFIG, { url: 'ldap://a' });
    expect(diffResources(desiredState([want]), liveState([have]), OFF).changes[0]!.changedFields).toEqual(['token_type']);
  });
});

describe('diffResources: write-only fields', () => {
  const want = (attrs = { url: 'ldap://a' }) => desired(CONFIG, attrs, { writeOnly: { bindpass: bindpass(), client_tls_cert: 'PEM' }, sensitiveFields: ['bindpass'] });

  it('lists them on a change but never compares them', () => {
    // The server reads them back as "redacted" or not at all: neither is drift.
    const have = live(CONFIG, { url: 'ldap://old', bindpass: 'redacted' });
    const [c] = diffResources(desiredState([want()]), liveState([have]), OFF).changes;
    expect(c!.changedFields).toEqual(['url']);
    expect(c!.writeOnlyFields).toEqual(['bindpass', 'client_tls_cert']);
    expect(c!.sensitiveFields).toEqual(['bindpass']);
  });

  it('makes no change when only they could differ', () => {
    const have = live(CONFIG, { url: 'ldap://a', bindpass: 'redacted' });
    expect(diffResources(desiredState([want()]), liveState([have]), OFF).changes).toEqual([]);
  });

  it('with syncSecrets, re-sends them through a sync-secrets update when nothing else changed', () => {
    const have = live(CONFIG, { url: 'ldap://a' });
    const [c, ...rest] = diffResources(desiredState([want()]), liveState([have]), SYNC).changes;
    expect(rest).toEqual([]);
    expect(c).toMatchObject({ action: 'update', reason: 'sync-secrets', changedFields: [], writeOnlyFields: ['bindpass', 'client_tls_cert'] });
  });

  it('with syncSecrets, a real change stays declared (it sends them anyway)', () => {
    const have = live(CONFIG, { url: 'ldap://old' });
    const [c] = diffResources(desiredState([want()]), liveState([have]), SYNC).changes;
    expect(c).toMatchObject({ action: 'update', reason: 'declared', changedFields: ['url'] });
  });

  it('with syncSecrets, an object without write-only fields that matches makes no change', () => {
    const plain = desired(CONFIG, { url: 'ldap://a' });
    expect(diffResources(desiredState([plain]), liveState([live(CONFIG, { url: 'ldap://a' })]), SYNC).changes).toEqual([]);
  });

  it('with syncSecrets, a missing object is still a plain create', () => {
    const [c] = diffResources(desiredState([want()]), liveState([]), SYNC).changes;
    expect(c).toMatchObject({ action: 'create', reason: 'declared', writeOnlyFields: ['bindpass', 'client_tls_cert'] });
  });

  it('never puts a Secret (nor its text) into before or after', () => {
    const creating = diffResources(desiredState([want()]), liveState([]), SYNC).changes;
    const syncing = diffResources(desiredState([want()]), liveState([live(CONFIG, { url: 'ldap://a' })]), SYNC).changes;
    for (const c of [...creating, ...syncing]) {
      walk(c.before, (v) => expect(isSecret(v)).toBe(false));
      walk(c.after, (v) => expect(isSecret(v)).toBe(false));
      expect(c.after).not.toHaveProperty('bindpass');
      walk(c, (v) => expect(v === CANARY).toBe(false));
      // Even through a Secret that slipped in somewhere, nothing prints the text.
      expect(JSON.stringify(c) + inspect(c, { depth: 20 })).not.toContain(CANARY);
    }
  });
});

describe('diffResources: collections', () => {
  const managedUsers = (prune: boolean, deleteLoses?: string) => ({ address: USERS, memberType: 'ldap.user', prune, deleteLoses });
  const user = (name: string) => live(USERS.child(name), { policies: [] }, 'ldap.user');
  const alice = desired(USERS.child('alice'), { policies: [] }, { resourceType: 'ldap.user' });

  it('lists live members no manifest names as unmanaged, sorted, when pruning is off', () => {
    const { changes, unmanaged } = diffResources(
      desiredState([alice], [managedUsers(false)]),
      liveState([user('mallory'), user('alice'), user('eve')]),
      OFF,
    );
    expect(changes).toEqual([]);
    expect(unmanaged.map((u) => `${u.address} ${u.resourceType}`)).toEqual(['east:auth/ldap/users/eve ldap.user', 'east:auth/ldap/users/mallory ldap.user']);
  });

  it('deletes them (reason prune, before = live attrs) when pruning is on', () => {
    const { changes, unmanaged } = diffResources(desiredState([alice], [managedUsers(true)]), liveState([user('alice'), user('mallory')]), OFF);
    expect(unmanaged).toEqual([]);
    expect(changes).toHaveLength(1);
    expect(changes[0]).toMatchObject({
      action: 'delete',
      reason: 'prune',
      resourceType: 'ldap.user',
      before: { policies: [] },
      after: null,
      changedFields: ['policies'],
      dependsOn: [],
    });
    expect(addrs(changes)).toEqual(['east:auth/ldap/users/mallory']);
    expect(changes[0]!.owner).toBeUndefined();
    // A collection that says a delete loses nothing prunes plainly.
    expect(changes[0]).toMatchObject({ destructive: false, notes: [] });
  });

  it("makes a prune's delete destructive, with the reason as its note, when the collection says what a delete loses", () => {
    const { changes } = diffResources(desiredState([alice], [managedUsers(true, 'takes access away')]), liveState([user('alice'), user('mallory')]), OFF);
    expect(changes).toHaveLength(1);
    expect(changes[0]).toMatchObject({ action: 'delete', reason: 'prune', destructive: true, notes: ['takes access away'] });
  });

  it('counts only direct children of the collection, of its member type, on its cluster', () => {
    const others = [
      live(USERS.child('bob', 'extra'), {}, 'ldap.user'), // grandchild
      live(east('auth/ldap/users-old/carol'), {}, 'ldap.user'), // string prefix, not a child
      live(east('auth/ldap/groups/devs'), {}, 'ldap.group'), // another collection
      live(USERS.child('dave'), {}, 'ldap.group'), // a child of another type
      live(USERS, {}, 'ldap.user'), // the collection itself
      live(new Address('west', USERS.child('erin').segments), {}, 'ldap.user'), // another cluster
    ];
    const { changes, unmanaged } = diffResources(desiredState([], [managedUsers(true)]), liveState(others), OFF);
    expect(changes).toEqual([]);
    expect(unmanaged).toEqual([]);
  });

  it('returns changes in address order, deletes among them (ordering for execution is order/’s job)', () => {
    const want = [desired(USERS.child('zed'), {}, { resourceType: 'ldap.user' }), desired(CONFIG, { url: 'x' })];
    const { changes } = diffResources(desiredState(want, [managedUsers(true)]), liveState([user('bob')]), OFF);
    expect(addrs(changes)).toEqual(['east:auth/ldap/config', 'east:auth/ldap/users/bob', 'east:auth/ldap/users/zed']);
  });
});

describe('diffResources: purity', () => {
  it('does not mutate its (deep-frozen) inputs, and its output shares nothing with them', () => {
    const want = desired(CONFIG, { url: 'ldap://b', token_policies: ['a', 'b'], nested: { x: [1] } }, { writeOnly: { bindpass: bindpass() }, sensitiveFields: ['bindpass'], dependsOn: [east('sys/auth/ldap')] });
    const group = desired(east('auth/ldap/groups/g'), { policies: ['p'] }, { resourceType: 'ldap.group' });
    const have = live(CONFIG, { url: 'ldap://a', token_policies: ['a', 'b'], nested: { x: [1] } });
    const stray = live(USERS.child('mallory'), { policies: ['admin'] }, 'ldap.user');
    const desiredIn = deepFreeze(desiredState([want, group], [{ address: USERS, memberType: 'ldap.user', prune: true, deleteLoses: undefined }]));
    const liveIn = deepFreeze(liveState([stray, have]));
    const snapshot = JSON.stringify([desiredIn, liveIn]);

    const { changes } = diffResources(desiredIn, liveIn, SYNC);
    expect(JSON.stringify([desiredIn, liveIn])).toBe(snapshot);

    // Mutating the result must not reach back into the inputs (frozen inputs would throw).
    expect(changes.map((c) => c.action).sort()).toEqual(['create', 'delete', 'update']);
    for (const c of changes) {
      if (c.after) (c.after as Record<string, unknown>)['url'] = 'mutated';
      if (c.before) (c.before as Record<string, unknown>)['policies'] = ['mutated'];
      c.dependsOn.length = 0;
      c.changedFields.push('mutated');
      c.sensitiveFields.push('mutated');
    }
    expect(JSON.stringify([desiredIn, liveIn])).toBe(snapshot);
  });
});
