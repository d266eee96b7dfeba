import { describe, expect, it } from 'vitest';
import { Address } from '../../src/core/address.js';
import type { Change } from '../../src/core/plan.js';
import { orderChanges, selectTargets } from '../../src/order/order.js';
import { addrs, change, create, deepFreeze, del, east } from '../core/builders.js';

const update = (path: string, ...deps: string[]): Change => change({ address: east(path), action: 'update', dependsOn: deps.map(east) });

/** A whole LDAP mount being created: mount, config, two groups, two users. */
function ldapFromScratch(): Change[] {
  return [
    create('auth/ldap/users/bob', 'auth/ldap/groups/devs', 'sys/auth/ldap'),
    create('auth/ldap/users/alice', 'auth/ldap/groups/admins', 'sys/auth/ldap'),
    create('auth/ldap/groups/devs', 'sys/auth/ldap'),
    create('auth/ldap/groups/admins', 'sys/auth/ldap'),
    update('auth/ldap/config', 'sys/auth/ldap'),
    create('sys/auth/ldap'),
  ];
}

describe('orderChanges', () => {
  it('puts dependencies first, then breaks ties by address', () => {
    expect(addrs(orderChanges(ldapFromScratch()))).toEqual([
      'east:sys/auth/ldap',
      'east:auth/ldap/config',
      'east:auth/ldap/groups/admins',
      'east:auth/ldap/groups/devs',
      'east:auth/ldap/users/alice',
      'east:auth/ldap/users/bob',
    ]);
  });

  it('breaks ties by Address order, not string order', () => {
    expect(addrs(orderChanges([create('x-y'), create('x/y/z'), create('x/y'), create('w')]))).toEqual(['east:w', 'east:x/y', 'east:x/y/z', 'east:x-y']);
  });

  it('gives the same order whatever the input order', () => {
    const expected = addrs(orderChanges(ldapFromScratch()));
    expect(addrs(orderChanges([...ldapFromScratch()].reverse()))).toEqual(expected);
  });

  it('runs deletes after every write, in reverse address order (users before the groups they name)', () => {
    const ordered = orderChanges([
      del('auth/ldap/groups/old'),
      create('auth/ldap/users/zed'),
      del('auth/ldap/users/mallory'),
      update('auth/ldap/config'),
      del('auth/ldap/users/eve'),
    ]);
    expect(addrs(ordered)).toEqual([
      'east:auth/ldap/config',
      'east:auth/ldap/users/zed',
      'east:auth/ldap/users/mallory',
      'east:auth/ldap/users/eve',
      'east:auth/ldap/groups/old',
    ]);
  });

  it('runs a delete that a write depends on (a replace) before that write', () => {
    const ordered = orderChanges([
      del('sys/managed-keys/provAkms/zz-other'),
      create('sys/managed-keys/pkcs11/k', 'sys/managed-keys/provAkms/k'),
      del('sys/managed-keys/provAkms/k', 'replace'),
      create('sys/managed-keys/pkcs11/a'),
    ]);
    expect(addrs(ordered)).toEqual([
      'east:sys/managed-keys/pkcs11/a',
      'east:sys/managed-keys/provAkms/k',
      'east:sys/managed-keys/pkcs11/k',
      'east:sys/managed-keys/provAkms/zz-other',
    ]);
    expect(ordered[2]!.dependsOn.map(String)).toEqual(['east:sys/managed-keys/provAkms/k']);
  });

  it('drops dependencies on objects that are not changing (they already exist)', () => {
    const ordered = orderChanges([create('auth/ldap/users/alice', 'auth/ldap/groups/admins', 'sys/auth/ldap'), create('auth/ldap/groups/admins')]);
    expect(ordered.find((c) => c.address.equals(east('auth/ldap/users/alice')))!.dependsOn.map(String)).toEqual(['east:auth/ldap/groups/admins']);
  });

  it('does not mutate its input', () => {
    const input = deepFreeze(ldapFromScratch().concat([create('auth/ldap/users/carol', 'not/in/plan'), del('auth/ldap/users/x')]));
    const snapshot = JSON.stringify(input);
    const ordered = orderChanges(input);
    expect(JSON.stringify(input)).toBe(snapshot);
    expect(ordered.find((c) => String(c.address) === 'east:auth/ldap/users/carol')!.dependsOn).toEqual([]);
  });

  it('throws on a dependency cycle, naming it', () => {
    expect(() => orderChanges([create('a', 'b'), create('b', 'c'), create('c', 'a')])).toThrow(/dependency cycle: east:a -> east:b -> east:c -> east:a/);
    expect(() => orderChanges([create('self', 'self')])).toThrow(/dependency cycle/);
  });

  it('orders an empty plan as empty', () => {
    expect(orderChanges([])).toEqual([]);
  });
});

describe('selectTargets', () => {
  const ordered = orderChanges([...ldapFromScratch(), create('auth/ldap/users/carol', 'sys/auth/ldap'), del('auth/ldap/users/mallory')]);

  it('keeps every change with no targets', () => {
    expect(selectTargets(ordered, [])).toEqual(ordered);
  });

  it('keeps a target and what it depends on, transitively, and nothing else, in plan order', () => {
    expect(addrs(selectTargets(ordered, [east('auth/ldap/users/alice')]))).toEqual([
      'east:sys/auth/ldap',
      'east:auth/ldap/groups/admins',
      'east:auth/ldap/users/alice',
    ]);
  });

  it('takes a target as a subtree: everything at or below it', () => {
    expect(addrs(selectTargets(ordered, [east('auth/ldap/groups')]))).toEqual([
      'east:sys/auth/ldap',
      'east:auth/ldap/groups/admins',
      'east:auth/ldap/groups/devs',
    ]);
  });

  it('matches segment-wise: auth/ldap/users/al selects nothing', () => {
    expect(selectTargets(ordered, [east('auth/ldap/users/al')])).toEqual([]);
  });

  it('unites several targets and never pulls in dependents', () => {
    expect(addrs(selectTargets(ordered, [east('auth/ldap/users/mallory'), east('sys/auth/ldap')]))).toEqual([
      'east:sys/auth/ldap',
      'east:auth/ldap/users/mallory',
    ]);
  });

  it('ignores targets on other clusters', () => {
    expect(selectTargets(ordered, [new Address('west', 'auth/ldap')])).toEqual([]);
  });
});

describe('orderChanges: namespaces first', () => {
  const namespace = (path: string, action: Change['action'] = 'create'): Change => change({ address: east(path), action, resourceType: 'namespace' });

  it('every write inside a namespace the plan creates waits for it, whatever kind planned it; a nested one waits for its parent', () => {
    const ordered = orderChanges([
      create('team-a/apps/auth/ldap/users/alice', 'team-a/apps/sys/auth/ldap'),
      create('team-a/apps/sys/auth/ldap'),
      create('team-a/sys/managed-keys/pkcs11/k'),
      namespace('team-a/sys/namespaces/apps'),
      namespace('sys/namespaces/team-a'),
      create('auth/ldap/users/root-user'),
    ]);
    expect(addrs(ordered)).toEqual([
      'east:auth/ldap/users/root-user',
      'east:sys/namespaces/team-a',
      'east:team-a/sys/namespaces/apps',
      'east:team-a/apps/sys/auth/ldap',
      'east:team-a/apps/auth/ldap/users/alice',
      'east:team-a/sys/managed-keys/pkcs11/k',
    ]);
    const depsOf = (path: string): string[] => ordered.find((c) => c.address.equals(east(path)))!.dependsOn.map(String);
    expect(depsOf('team-a/apps/sys/auth/ldap')).toEqual(['east:team-a/sys/namespaces/apps']);
    expect(depsOf('team-a/sys/namespaces/apps')).toEqual(['east:sys/namespaces/team-a']);
    expect(depsOf('team-a/sys/managed-keys/pkcs11/k')).toEqual(['east:sys/namespaces/team-a']);
    expect(depsOf('auth/ldap/users/root-user')).toEqual([]);
  });

  it('adds nothing for a namespace that is not being written, nor to deletes', () => {
    const ordered = orderChanges([create('team-a/sys/auth/ldap'), del('team-b/auth/ldap/users/x'), namespace('sys/namespaces/team-b', 'delete')]);
    expect(ordered.every((c) => c.dependsOn.length === 0)).toBe(true);
  });

  it('leaves its input alone', () => {
    const input = deepFreeze([create('team-a/sys/auth/ldap'), namespace('sys/namespaces/team-a')]);
    expect(() => orderChanges(input)).not.toThrow();
    expect(input[0]!.dependsOn).toEqual([]);
  });
});
