/** Steps the end-to-end tests of the built CLI share. */
import { mkdir, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { expect } from 'vitest';
import type { CliResult } from './cli.js';

/** Writes `files` (name → text) into `folder`, emptied first; returns the folder. */
export async function writeManifestFolder(folder: string, files: Record<string, string>): Promise<string> {
  await rm(folder, { recursive: true, force: true });
  await mkdir(folder, { recursive: true });
  for (const [name, text] of Object.entries(files)) await writeFile(path.join(folder, name), text);
  return folder;
}

/**
 * The plan of `manifests` is empty: exit 0 under --detailed-exitcode and the "No changes" line.
 * With `--ignore-unmanaged` among `args`, objects no manifest lists may remain (listed).
 */
export async function expectNoChanges(cli: (args: string[]) => Promise<CliResult>, manifests: string, args: string[] = []): Promise<void> {
  const again = await cli(['plan', manifests, '--detailed-exitcode', ...args]);
  expect(again.code, again.stdout + again.stderr).toBe(0);
  expect(again.stdout).toMatch(args.includes('--ignore-unmanaged') ? NOTHING_TO_CHANGE : /^No changes\. Live state matches the manifests\./);
}

/** The first line of a plan with nothing to change, unmanaged objects or not. */
export const NOTHING_TO_CHANGE = /^(No changes\. Live state matches the manifests\.|No changes to make, but \d+ objects? on the servers (is|are) in no manifest \(unmanaged, below\)\.)$/m;
