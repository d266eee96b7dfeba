import { open, rename, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';

/** Makes a rename or a file creation in `dir` durable. */
export async function fsyncDir(dir: string): Promise<void> {
  const handle = await open(dir, 'r');
  try {
    await handle.sync();
  } finally {
    await handle.close();
  }
}

/** Replaces `path` with `data` so that a crash leaves either the old or the new content. */
export async function writeFileAtomic(path: string, data: string | Buffer, mode = 0o600): Promise<void> {
  const tmp = `${path}.tmp`;
  await writeFile(tmp, data, { mode });
  const handle = await open(tmp, 'r+');
  try {
    await handle.sync();
  } finally {
    await handle.close();
  }
  await rename(tmp, path);
  await fsyncDir(dirname(path));
}
