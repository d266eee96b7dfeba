import { execFileSync } from 'node:child_process';
import { mkdir, symlink } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { Diagnostics } from '../../src/core/diagnostics.js';
import { listManifestFiles } from '../../src/load/files.js';
import { loadPaths } from '../../src/load/loader.js';
import { useTempTrees } from '../support/temp-tree.js';

const tree = useTempTrees();

const lines = (diags: Diagnostics, root: string): string[] => diags.format().map((l) => l.split(root).join('<root>'));

describe('listManifestFiles', () => {
  test('#13.8: a folder with two symbolic links to its parent is walked once, each link one located error', async () => {
    const root = await tree({ 'top.yaml': 'n: top\n', 'sub/inner.yaml': 'n: inner\n' });
    await symlink('..', join(root, 'sub', 'a'));
    await symlink('..', join(root, 'sub', 'b'));
    const diags = new Diagnostics();
    const docs = await loadPaths([root], diags);
    expect(docs.map((d) => (d.value as { n: string }).n)).toEqual(['inner', 'top']);
    expect(lines(diags, root)).toEqual([
      'error: <root>/sub/a: symbolic link loop: it leads back to <root>, which is being read (not followed)',
      'error: <root>/sub/b: symbolic link loop: it leads back to <root>, which is being read (not followed)',
    ]);
  });

  test('#13.8: one loop loads each file once: no bogus "already defined" errors', async () => {
    const doc = 'apiVersion: lockstep/v1\nkind: LdapAuth\nmount: ldap\ngroups:\n  admins: { policies: [a] }\n';
    const root = await tree({ 'm/ldap.yaml': doc });
    await symlink('.', join(root, 'm', 'again'));
    const diags = new Diagnostics();
    const files = await listManifestFiles([root], diags);
    expect(files.map((f) => f.file)).toEqual([join(root, 'm/ldap.yaml')]);
    expect(lines(diags, root)).toEqual(['error: <root>/m/again: symbolic link loop: it leads back to <root>/m, which is being read (not followed)']);
  });

  test('#13.8: a deep tree of links back up stays linear (each real directory walked once)', async () => {
    // 12 levels, each with two links to the root: exponential (2^12 walks and more) if links were followed.
    const files: Record<string, string> = {};
    let dir = '';
    for (let i = 0; i < 12; i++) {
      dir = join(dir, `d${i}`);
      files[join(dir, 'm.yaml')] = `n: ${i}\n`;
    }
    const root = await tree(files);
    dir = root;
    for (let i = 0; i < 12; i++) {
      dir = join(dir, `d${i}`);
      await symlink(root, join(dir, 'up1'));
      await symlink(root, join(dir, 'up2'));
    }
    const diags = new Diagnostics();
    const found = await listManifestFiles([root], diags);
    expect(found).toHaveLength(12);
    expect(diags.errors).toHaveLength(24);
  });

  test('a link to a sibling directory already read, or a second name of a file, adds nothing and is no error', async () => {
    const root = await tree({ 'a/x.yaml': 'n: x\n' });
    await symlink(join(root, 'a'), join(root, 'b'));
    await symlink(join(root, 'a', 'x.yaml'), join(root, 'y.yaml'));
    const diags = new Diagnostics();
    const files = await listManifestFiles([root, join(root, 'a')], diags);
    expect(diags.items).toEqual([]);
    expect(files.map((f) => f.file)).toEqual([join(root, 'a/x.yaml')]);
  });

  test('a cycle of links is reported where it is', async () => {
    const root = await tree({ 'ok.yaml': 'n: 1\n' });
    await symlink('l2.yaml', join(root, 'l1.yaml'));
    await symlink('l1.yaml', join(root, 'l2.yaml'));
    await mkdir(join(root, 'empty'));
    const diags = new Diagnostics();
    const files = await listManifestFiles([root], diags);
    expect(files.map((f) => f.file)).toEqual([join(root, 'ok.yaml')]);
    expect(lines(diags, root)).toEqual([
      'error: <root>/l1.yaml: symbolic link loop: the links never reach a file or directory (not followed)',
      'error: <root>/l2.yaml: symbolic link loop: the links never reach a file or directory (not followed)',
    ]);
  });

  test('a FIFO named as a manifest is refused, not read (a read would block for ever)', async () => {
    const root = await tree({});
    execFileSync('mkfifo', [join(root, 'p.yaml')]);
    const diags = new Diagnostics();
    expect(await loadPaths([join(root, 'p.yaml'), root], diags)).toEqual([]);
    expect(lines(diags, root)).toEqual(['error: <root>/p.yaml: not a regular file']);
  });

  test('each file records the directory given on the command line (its folder for a file)', async () => {
    const root = await tree({ 'a/x.yaml': 'n: x\n', 'b.yaml': 'n: b\n' });
    const files = await listManifestFiles([join(root, 'a'), join(root, 'b.yaml')], new Diagnostics());
    expect(files.map((f) => f.givenDir)).toEqual([join(root, 'a'), root]);
  });
});
