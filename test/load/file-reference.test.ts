import { execFileSync } from 'node:child_process';
import { mkdir, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { Diagnostics } from '../../src/core/diagnostics.js';
import { MAX_REFERENCED_FILE_BYTES } from '../../src/load/file-reference.js';
import { loadPaths } from '../../src/load/loader.js';
import { resolveReferences } from '../../src/load/references.js';
import { useTempTrees } from '../support/temp-tree.js';

const CANARY = 'canary-outside-file-5e1d';
const tree = useTempTrees();

/** Loads `given` as a command would, resolves every document's references; the values and the diagnostics (root as <root>). */
async function resolveAt(given: string, root: string, allowFilesOutsideRoot = false) {
  const diags = new Diagnostics();
  const values: unknown[] = [];
  for (const doc of await loadPaths([given], diags)) {
    values.push(await resolveReferences(doc, [], { allowPlaintextSecrets: false, allowFilesOutsideRoot, env: {} }, diags));
  }
  return { values, lines: diags.format().map((l) => l.split(root).join('<root>')) };
}

describe('${file:} confinement', () => {
  test('#13.4: an absolute path out of the tree (/proc/self/environ) is refused at the value, naming the reference, never the content', async () => {
    process.env['LOCKSTEP_TEST_CANARY'] = CANARY;
    try {
      const root = await tree({ 'm.yaml': 'upndomain: ${file:/proc/self/environ}\n' });
      const { values, lines } = await resolveAt(root, root);
      expect(values).toEqual([undefined]);
      expect(lines).toEqual([
        `<root>/m.yaml:1:12: error: upndomain: file "/proc/self/environ" is outside the directory given on the command line (<root>); pass --allow-files-outside-root to read it on purpose`,
      ]);
      expect(lines.join('\n')).not.toContain(CANARY);
    } finally {
      delete process.env['LOCKSTEP_TEST_CANARY'];
    }
  });

  test('#13.4: ../ out of the git work tree is refused; inside it, a path up from the manifest is read', async () => {
    const top = await tree({ 'outside.txt': CANARY, 'repo/shared.txt': 'shared\n', 'repo/team/m.yaml': 'a: ${file:../shared.txt}\nb: ${file:../../outside.txt}\n' });
    await mkdir(join(top, 'repo', '.git'));
    const { lines } = await resolveAt(join(top, 'repo', 'team'), top);
    expect(lines).toEqual([
      `<root>/repo/team/m.yaml:2:4: error: b: file "../../outside.txt" is outside the git work tree that holds the manifest (<root>/repo); pass --allow-files-outside-root to read it on purpose`,
    ]);
    const inside = await tree({ 'repo/shared.txt': 'shared\n', 'repo/team/m.yaml': 'a: ${file:../shared.txt}\n' });
    // A .git file (a worktree or submodule) marks a work tree as a .git folder does.
    await writeFile(join(inside, 'repo', '.git'), 'gitdir: /elsewhere\n');
    expect(await resolveAt(join(inside, 'repo', 'team'), inside)).toEqual({ values: [{ a: 'shared' }], lines: [] });
  });

  test('a file inside .git (the checkout\'s credentials in .git/config), directly or through a link, is refused, even with confinement lifted', async () => {
    const top = await tree({
      'repo/.git/config': `[http]\n\textraheader = AUTHORIZATION: basic ${CANARY}\n`,
      'repo/m.yaml': 'a: ${file:.git/config}\nb: ${file:.GIT/config}\nc: ${file:link}\n',
    });
    await symlink(join(top, 'repo', '.git', 'config'), join(top, 'repo', 'link'));
    for (const lifted of [false, true]) {
      const { values, lines } = await resolveAt(join(top, 'repo'), top, lifted);
      expect(values).toEqual([undefined]);
      const problem = "is inside the repository's git directory (.git), which holds its own settings and credentials, never a manifest's values";
      // .GIT is the same directory only where names are compared without case: refused there, missing here.
      expect(lines.filter((l) => !l.includes('.GIT/config'))).toEqual([
        `<root>/repo/m.yaml:1:4: error: a: file ".git/config" ${problem}`,
        `<root>/repo/m.yaml:3:4: error: c: file "link" ${problem}`,
      ]);
      expect(lines.join('\n')).not.toContain(CANARY);
    }
  });

  test('the directory a .git file points to (a worktree, git init --separate-git-dir) is as closed as a .git directory', async () => {
    const top = await tree({ 'repo/gd/config': `[remote "origin"]\n\turl = https://user:${CANARY}@example.com/r.git\n`, 'repo/m.yaml': 'a: ${file:gd/config}\n' });
    await writeFile(join(top, 'repo', '.git'), 'gitdir: gd\n');
    const { values, lines } = await resolveAt(join(top, 'repo'), top);
    expect(values).toEqual([undefined]);
    expect(lines).toEqual([`<root>/repo/m.yaml:1:4: error: a: file "gd/config" is inside the repository's git directory (.git), which holds its own settings and credentials, never a manifest's values`]);
  });

  test('#13.4: outside git, the directory given on the command line bounds references (a file given: its folder)', async () => {
    const top = await tree({ 'secret.txt': CANARY, 'app/m.yaml': 'a: ${file:../secret.txt}\n' });
    const { lines } = await resolveAt(join(top, 'app'), top);
    expect(lines).toEqual([
      `<root>/app/m.yaml:1:4: error: a: file "../secret.txt" is outside the directory given on the command line (<root>/app); pass --allow-files-outside-root to read it on purpose`,
    ]);
    expect((await resolveAt(join(top, 'app', 'm.yaml'), top)).lines).toHaveLength(1);
    expect(await resolveAt(top, top)).toEqual({ values: [{ a: CANARY }], lines: [] });
  });

  test('#13.4: a symbolic link inside the tree that points out of it is refused (the real path counts)', async () => {
    const top = await tree({ 'outside.txt': CANARY, 'repo/m.yaml': 'a: ${file:link.txt}\nb: ${file:dir/x.txt}\n' });
    await mkdir(join(top, 'repo', '.git'));
    await symlink(join(top, 'outside.txt'), join(top, 'repo', 'link.txt'));
    await mkdir(join(top, 'elsewhere'));
    await writeFile(join(top, 'elsewhere', 'x.txt'), CANARY);
    await symlink(join(top, 'elsewhere'), join(top, 'repo', 'dir'));
    const { lines } = await resolveAt(join(top, 'repo'), top);
    expect(lines).toEqual([
      `<root>/repo/m.yaml:1:4: error: a: file "link.txt" is outside the git work tree that holds the manifest (<root>/repo); pass --allow-files-outside-root to read it on purpose`,
      `<root>/repo/m.yaml:2:4: error: b: file "dir/x.txt" is outside the git work tree that holds the manifest (<root>/repo); pass --allow-files-outside-root to read it on purpose`,
    ]);
  });

  test('#13.4: a FIFO, a directory or a device is refused without blocking, even with the confinement lifted', async () => {
    const root = await tree({ 'm.yaml': 'a: ${file:pipe}\nb: ${file:sub}\nc: ${file:/dev/zero}\n', 'sub/x': '' });
    execFileSync('mkfifo', [join(root, 'pipe')]);
    const { lines } = await resolveAt(root, root, true);
    expect(lines).toEqual([
      `<root>/m.yaml:1:4: error: a: file "pipe" is not a regular file (a named pipe)`,
      `<root>/m.yaml:2:4: error: b: file "sub" is not a regular file (a directory)`,
      `<root>/m.yaml:3:4: error: c: file "/dev/zero" is not a regular file (a device)`,
    ]);
  });

  test('#13.4: at most 1 MiB is read', async () => {
    const root = await tree({
      'm.yaml': 'a: ${file:big.txt}\nb: ${file:limit.txt}\n',
      'big.txt': 'x'.repeat(MAX_REFERENCED_FILE_BYTES + 1),
      'limit.txt': 'y'.repeat(MAX_REFERENCED_FILE_BYTES),
    });
    const { lines } = await resolveAt(root, root);
    expect(MAX_REFERENCED_FILE_BYTES).toBe(1024 * 1024);
    expect(lines).toEqual([`<root>/m.yaml:1:4: error: a: file "big.txt" is larger than 1048576 bytes (1 MiB), the most a reference reads`]);
  });

  test('#13.4: --allow-files-outside-root reads a file out of the tree on purpose', async () => {
    const top = await tree({ 'outside.txt': `${CANARY}\n`, 'app/m.yaml': 'a: ${file:../outside.txt}\n' });
    expect(await resolveAt(join(top, 'app'), top, true)).toEqual({ values: [{ a: CANARY }], lines: [] });
  });

  test('a file that is not UTF-8 text is refused', async () => {
    const root = await tree({ 'm.yaml': 'a: ${file:bin}\n' });
    await writeFile(join(root, 'bin'), Buffer.from([0xff, 0xfe, 0x00, 0xc3]));
    expect((await resolveAt(root, root)).lines).toEqual([`<root>/m.yaml:1:4: error: a: file "bin" is not UTF-8 text`]);
  });
});
