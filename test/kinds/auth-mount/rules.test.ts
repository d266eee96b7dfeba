import { describe, expect, test } from 'vitest';
import { Diagnostics } from '../../../src/core/diagnostics.js';
import { MountPath } from '../../../src/core/mount-path.js';
import { groupByAuthMount } from '../../../src/kinds/auth-mount/mounts.js';
import { checkMountOverlaps, checkMountPath } from '../../../src/kinds/auth-mount/rules.js';
import { mountedDocs } from './docs.js';

describe('checkMountPath', () => {
  const problems = (text: string): string[] => {
    const diags = new Diagnostics();
    for (const doc of mountedDocs(text)) checkMountPath(doc, diags);
    return diags.format();
  };

  test('a mount is one segment or more without spaces; none named is fine', () => {
    expect(problems('kind: UserpassAuth\nmount: corp\n---\nkind: UserpassAuth\n---\nkind: UserpassAuth\nmount: team/ldap\n---\nkind: UserpassAuth\nmount: a/b/c\n')).toEqual([]);
    expect(problems('kind: UserpassAuth\nmount: "a//b"\n---\nkind: UserpassAuth\nmount: "a b"\n---\nkind: UserpassAuth\nmount: ".."\n---\nkind: UserpassAuth\nmount: "a/../b"\n')).toEqual([
      'f.yaml:2:8: error: mount: "a//b" has a segment "" that must not be empty',
      'f.yaml:5:8: error: mount: "a b" must not contain spaces',
      expect.stringMatching(/^f\.yaml:8:8: error: mount: "\.\." /),
      expect.stringMatching(/^f\.yaml:11:8: error: mount: "a\/\.\.\/b" has a segment "\.\." that /),
    ]);
  });
});

describe('checkMountOverlaps', () => {
  test('a declared mount within another of the same cluster and namespace is refused at its documents', () => {
    const docs = mountedDocs(
      ['mount: team', 'mount: team/ldap', 'mount: team/ldap\nnamespace: ns1', 'mount: teams/ldap', 'mount: team/ldap\ncluster: west'].map((l) => `kind: UserpassAuth\n${l}\n`).join('---\n'),
    );
    const diags = new Diagnostics();
    checkMountOverlaps(groupByAuthMount(docs, MountPath.of('userpass')), diags);
    expect(diags.format()).toEqual([
      'f.yaml:5:8: error: mount: mount "team/ldap" (cluster default) lies within mount "team" (cluster default): the service refuses to enable a mount inside another',
    ]);
  });
});
