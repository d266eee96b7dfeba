import { describe, expect, test } from 'vitest';
import { MountPath } from '../../../src/core/mount-path.js';
import { describeAuthMount, groupByAuthMount } from '../../../src/kinds/auth-mount/mounts.js';
import { mountedDocs } from './docs.js';

describe('groupByAuthMount', () => {
  test('documents of one cluster, namespace and mount form one group, in order of first appearance; the default mount when none is named', () => {
    const all = mountedDocs(
      ['mount: corp', 'namespace: team-a', 'cluster: default', 'mount: corp', 'cluster: west', 'mount: userpass'].map((line) => `kind: UserpassAuth\n${line}\n`).join('---\n'),
    );
    const groups = groupByAuthMount(all, MountPath.of('userpass'));
    expect(groups.map(({ docs: members, ...scope }) => ({ ...scope, docs: members.map((d) => all.indexOf(d)) }))).toEqual([
      { cluster: 'default', namespace: '', mount: MountPath.of('corp'), docs: [0, 3] },
      { cluster: 'default', namespace: 'team-a', mount: MountPath.of('userpass'), docs: [1] },
      { cluster: 'default', namespace: '', mount: MountPath.of('userpass'), docs: [2, 5] },
      { cluster: 'west', namespace: '', mount: MountPath.of('userpass'), docs: [4] },
    ]);
  });

  test('a mount is described with its cluster, and its namespace when not the root', () => {
    expect(describeAuthMount({ cluster: 'default', namespace: '', mount: MountPath.of('corp') })).toBe('mount "corp" (cluster default)');
    expect(describeAuthMount({ cluster: 'east', namespace: 'team-a', mount: MountPath.of('corp') })).toBe('mount "corp" (cluster east, namespace team-a)');
  });
});
