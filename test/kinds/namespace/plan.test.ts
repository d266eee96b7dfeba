import { describe, expect, test } from 'vitest';
import { AddressMap } from '../../../src/core/address.js';
import { namespaceAddress, namespaceCollection } from '../../../src/core/namespace-path.js';
import { planNamespaces } from '../../../src/kinds/namespace/plan.js';
import type { NamespaceLiveState } from '../../../src/kinds/namespace/read.js';
import type { DesiredState } from '../../../src/core/resource.js';

const FLAGS = { syncSecrets: false, allowUnreachablePrimary: false, force: false };
const team = (name: string): ReturnType<typeof namespaceAddress> => namespaceAddress('east', name);

function live(holdings: Record<string, string[]>, names: string[]): NamespaceLiveState {
  const map = new AddressMap<string[]>();
  for (const [name, holds] of Object.entries(holdings)) map.set(team(name), holds);
  return { resources: names.map((n) => ({ address: team(n), resourceType: 'namespace', attrs: { custom_metadata: {} } })), observed: {}, notes: [], holdings: map };
}

const desired: DesiredState = {
  resources: [{ address: team('team-a'), resourceType: 'namespace', attrs: { custom_metadata: { owner: 'ops' } }, writeOnly: {}, sensitiveFields: [], dependsOn: [] }],
  collections: [{ address: namespaceCollection('east', ''), memberType: 'namespace', prune: true, deleteLoses: undefined }],
};

describe('planNamespaces', () => {
  test('an empty namespace no document declares is pruned; one that holds anything is refused, naming what it holds', () => {
    const plan = planNamespaces(desired, live({ 'team-b': [], 'team-c': ['auth method corp/', 'child namespace x'] }, ['team-a', 'team-b', 'team-c']), FLAGS);
    expect(plan.changes.map((c) => `${c.action} ${c.address}`)).toEqual(['update east:sys/namespaces/team-a', 'delete east:sys/namespaces/team-b', 'delete east:sys/namespaces/team-c']);
    expect(plan.errors.map((e) => e.message)).toEqual([
      'east:sys/namespaces/team-c: cannot prune this namespace: it holds auth method corp/, child namespace x (deleting a namespace deletes everything in it); remove them first, or declare the namespace',
    ]);
  });

  test('a delete whose holdings were not read is refused, never carried out blind', () => {
    const plan = planNamespaces(desired, live({}, ['team-a', 'team-d']), FLAGS);
    expect(plan.errors.map((e) => e.message)).toEqual(['east:sys/namespaces/team-d: cannot prune this namespace: what it holds was not read']);
  });
});
