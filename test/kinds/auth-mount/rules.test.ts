import { describe, expect, test } from 'vitest';
import { Diagnostics } from '../../../src/core/diagnostics.js';
import { checkMountPath } from '../../../src/kinds/auth-mount/rules.js';
import { mountedDocs } from './docs.js';

describe('checkMountPath', () => {
  const problems = (text: string): string[] => {
    const diags = new Diagnostics();
    for (const doc of mountedDocs(text)) checkMountPath(doc, diags);
    return diags.format();
  };

  test('a mount is one path segment without spaces; none named is fine', () => {
    expect(problems('kind: UserpassAuth\nmount: corp\n---\nkind: UserpassAuth\n')).toEqual([]);
    expect(problems('kind: UserpassAuth\nmount: a/b\n---\nkind: UserpassAuth\nmount: "a b"\n---\nkind: UserpassAuth\nmount: ".."\n')).toEqual([
      'f.yaml:2:8: error: mount: "a/b" must not contain "/" (it would address another object)',
      'f.yaml:5:8: error: mount: "a b" must not contain spaces',
      expect.stringMatching(/^f\.yaml:8:8: error: mount: "\.\." /),
    ]);
  });
});
