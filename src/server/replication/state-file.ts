import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { writeFileAtomic } from '../storage/atomic-file.js';
import type { DrState } from './dr-state.js';

const STATE_FILE = 'dr-replication.json';

/** Where a cluster's DR state is kept: a private file under --data, or nowhere. */
export interface DrStateStore {
  load(): Promise<DrState | undefined>;
  save(state: DrState): Promise<void>;
}

export function drStateStore(dir: string | undefined): DrStateStore {
  if (dir === undefined) return { load: async () => undefined, save: async () => undefined };
  const file = join(dir, STATE_FILE);
  let queue: Promise<void> = Promise.resolve();
  return {
    load: async () => {
      try {
        return JSON.parse(await readFile(file, 'utf8')) as DrState;
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
        throw err;
      }
    },
    // Saves run one after the other, so the last state written is the last one saved.
    save: (state) => (queue = queue.catch(() => undefined).then(() => writeFileAtomic(file, JSON.stringify(state, null, 2) + '\n'))),
  };
}
