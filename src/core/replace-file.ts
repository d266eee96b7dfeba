import { randomBytes } from 'node:crypto';
import { rename, rm, writeFile } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';

/**
 * Writes `text` to `file` through a new file beside it, renamed over it: a reader never sees half
 * a file, and a link someone planted at `file` is replaced, never followed (an export into a
 * shared directory would otherwise overwrite whatever the link points at). The new file has a
 * name no one can guess and is created only if nothing is there (O_EXCL), so no link can be
 * planted in its place either; it is removed when the rename fails.
 */
export async function replaceFile(file: string, text: string, mode: number): Promise<void> {
  const temp = join(dirname(file), `.${basename(file)}.${randomBytes(6).toString('hex')}.tmp`);
  await writeFile(temp, text, { mode, flag: 'wx' });
  try {
    await rename(temp, file);
  } catch (err) {
    await rm(temp, { force: true });
    throw err;
  }
}
