import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterEach } from 'vitest';

/** Writes `files` (relative path → content) into a fresh temp folder; returns the folder. */
export async function makeTree(files: Record<string, string>): Promise<string> {
  const root = await mkdtemp(join(tmpdir(), 'lockstep-test-'));
  for (const [path, content] of Object.entries(files)) {
    await mkdir(dirname(join(root, path)), { recursive: true });
    await writeFile(join(root, path), content);
  }
  return root;
}

export async function removeTree(root: string): Promise<void> {
  await rm(root, { recursive: true, force: true });
}

/** Makes temp folders (as makeTree) for the tests of one file; each is removed after the test that made it. */
export function useTempTrees(): (files: Record<string, string>) => Promise<string> {
  const trees: string[] = [];
  afterEach(async () => {
    await Promise.all(trees.splice(0).map(removeTree));
  });
  return async (files) => {
    const root = await makeTree(files);
    trees.push(root);
    return root;
  };
}
