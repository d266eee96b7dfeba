import { readFile, stat, chmod } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from '../support/cli.js';
import { useTempTrees } from '../support/temp-tree.js';

// `lockstep fmt` through the built CLI: canonical layout written, comments kept, `--check` for CI,
// files with YAML errors reported where the error is and left as they are.
const tree = useTempTrees();

const MESSY = '# users\napiVersion:   lockstep/v1\nkind: LdapAuth\nusers:\n    alice: {groups: [admins]}   # on call\n';
const CANONICAL = '# users\napiVersion: lockstep/v1\nkind: LdapAuth\nusers:\n  alice: { groups: [ admins ] } # on call\n';

describe('lockstep fmt', () => {
  it('--check names the files that would change, exits 1 and writes nothing; fmt rewrites them (mode kept); then --check exits 0', async () => {
    const root = await tree({ 'm/a.yaml': MESSY, 'm/b.yaml': CANONICAL });
    await chmod(join(root, 'm/a.yaml'), 0o640);
    const check = await runCli(['fmt', '--check', join(root, 'm')]);
    expect(check).toMatchObject({ code: 1, stdout: `would reformat ${join(root, 'm/a.yaml')}\n`, stderr: '' });
    expect(await readFile(join(root, 'm/a.yaml'), 'utf8')).toBe(MESSY);

    const fmt = await runCli(['fmt', join(root, 'm')]);
    expect(fmt).toMatchObject({ code: 0, stdout: `reformatted ${join(root, 'm/a.yaml')}\n` });
    expect(await readFile(join(root, 'm/a.yaml'), 'utf8')).toBe(CANONICAL);
    expect((await stat(join(root, 'm/a.yaml'))).mode & 0o777).toBe(0o640);
    expect(await runCli(['fmt', '--check', join(root, 'm')])).toMatchObject({ code: 0, stdout: '' });
  });

  it('reports a file with YAML errors at the error and leaves it, formats the others, exits 1', async () => {
    const broken = 'apiVersion: lockstep/v1\nkind: LdapAuth\nusers:\n  alice: [\n';
    const root = await tree({ 'a.yaml': MESSY, 'b.yaml': broken });
    const r = await runCli(['fmt', root]);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(new RegExp(`^${join(root, 'b.yaml')}:\\d+:\\d+: error: invalid YAML`, 'm'));
    expect(await readFile(join(root, 'b.yaml'), 'utf8')).toBe(broken);
    expect(await readFile(join(root, 'a.yaml'), 'utf8')).toBe(CANONICAL);
  });

  it('an empty or mistyped path is an error, not silence', async () => {
    const root = await tree({ 'notes.txt': 'x' });
    expect((await runCli(['fmt', root])).code).toBe(1);
    expect((await runCli(['fmt', join(root, 'nope')])).code).toBe(1);
  });
});
