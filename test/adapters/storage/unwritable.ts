/**
 * An existing directory nobody can create files in, for "unwritable destination" tests.
 * Permission bits do not stop root (tests run as root here), so as root the directory is made
 * immutable with `chattr +i`; where that is refused too, a sysfs path (read-only for everyone)
 * stands in.
 */
import { execFile } from 'node:child_process';
import { chmod, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);

export interface UnwritableDir {
  path: string;
  how: 'chmod' | 'chattr' | 'sysfs';
  release(): Promise<void>;
}

export async function unwritableDir(): Promise<UnwritableDir> {
  const path = await mkdtemp(join(tmpdir(), 'lockstep-readonly-'));
  const remove = () => rm(path, { recursive: true, force: true });
  if (process.getuid?.() !== 0) {
    await chmod(path, 0o500);
    return { path, how: 'chmod', release: async () => (await chmod(path, 0o700), await remove()) };
  }
  try {
    await run('chattr', ['+i', path]);
    return { path, how: 'chattr', release: async () => (await run('chattr', ['-i', path]), await remove()) };
  } catch {
    await remove();
    return { path: '/sys/lockstep-unwritable-destination', how: 'sysfs', release: async () => undefined };
  }
}
