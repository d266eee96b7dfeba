import { chmod, lstat, mkdir, mkdtemp, readdir, readFile, rm, stat, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { replaceFile } from '../../src/core/replace-file.js';

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'lockstep-replace-file-'));
});
afterEach(async () => {
  await chmod(dir, 0o700);
  await rm(dir, { recursive: true, force: true });
});

describe('replaceFile', () => {
  it('writes a new file with the mode given, and replaces an old one whole', async () => {
    const file = path.join(dir, 'plan.json');
    await replaceFile(file, 'first', 0o600);
    await replaceFile(file, 'second', 0o600);
    expect(await readFile(file, 'utf8')).toBe('second');
    expect((await stat(file)).mode & 0o777).toBe(0o600);
    expect(await readdir(dir)).toEqual(['plan.json']);
  });

  it('replaces a link planted at the file, never writing through it', async () => {
    const victim = path.join(dir, 'victim');
    await writeFile(victim, 'precious');
    const file = path.join(dir, 'out.yaml');
    await symlink(victim, file);
    await replaceFile(file, 'exported', 0o644);
    expect((await lstat(file)).isSymbolicLink()).toBe(false);
    expect(await readFile(file, 'utf8')).toBe('exported');
    expect(await readFile(victim, 'utf8')).toBe('precious');
  });

  it('leaves nothing behind when the rename fails', async () => {
    // A directory where the file should go: the rename fails, the new file is removed.
    const target = path.join(dir, 'a-directory');
    await mkdir(target);
    await writeFile(path.join(target, 'keep'), 'k');
    await expect(replaceFile(target, 'text', 0o600)).rejects.toThrow();
    expect((await readdir(dir)).sort()).toEqual(['a-directory']);
  });
});
