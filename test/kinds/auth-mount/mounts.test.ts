import { describe, expect, test } from 'vitest';
import { describeAuthMount, groupByAuthMount } from '../../../src/kinds/auth-mount/mounts.js';
import { mountedDocs } from './docs.js';

describe('groupByAuthMount', () => {
  test('documents of one cluster, namespace and mount form one group, in order of first appearance; the default mount when none is named', () => {
    const all = mountedDocs(
      ['mount: corp', 'namespace: team-a', 'cluster: default', 'mount: corp', 'cluster: west', 'mount: userpass'].map((line) => `kind: UserpassAuth\n${line}\n`).join('---\n'),
    );
    const groups = groupByAuthMount(all, 'userpass');
    expect(groups.map(({ docs: members, ...scope }) => ({ ...scope, docs: members.map((d) => all.indexOf(d)) }))).toEqual([
      { cluster: 'default', namespace: '', mount: 'corp', docs: [0, 3] },
      { cluster: 'default', namespace: 'team-a', mount: 'userpass', docs: [1] },
      { cluster: 'default', namespace: '', mount: 'userpass', docs: [2, 5] },
      { cluster: 'west', namespace: '', mount: 'userpass', docs: [4] },
    ]);
  });

  test('a mount is described with its cluster, and its namespace when not the root', () => {
    expect(describeAuthMount({ cluster: 'default', namespace: '', mount: 'corp' })).toBe('mount "corp" (cluster default)');
    expect(describeAuthMount({ cluster: 'east', namespace: 'team-a', mount: 'corp' })).toBe('mount "corp" (cluster east, namespace team-a)');
  });
});
