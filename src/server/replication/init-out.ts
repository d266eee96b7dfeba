import { readFile } from 'node:fs/promises';
import { writeFileAtomic } from '../storage/atomic-file.js';

export interface InitRecord {
  name: string;
  baseUrl: string;
  rootToken: string;
  keyShares: string[];
  keyThreshold: number;
}

/**
 * `serve --init-out FILE`: each cluster's address, root token and root key shares (hex), for
 * rehearsal scripts. The file holds secrets: mode 0600, written atomically.
 */
export async function writeInitOut(file: string, clusters: readonly InitRecord[]): Promise<void> {
  const content = {
    clusters: Object.fromEntries(
      clusters.map((c) => [c.name, { address: c.baseUrl, root_token: c.rootToken, key_shares: c.keyShares, key_threshold: c.keyThreshold }]),
    ),
  };
  await writeFileAtomic(file, JSON.stringify(content, null, 2) + '\n', 0o600);
}

/**
 * The key shares of every cluster in a file `--init-out` wrote, one list per cluster: what
 * `serve --restore-keys FILE` opens snapshots of those clusters with. Errors never quote the file.
 */
export async function readInitOutKeyShares(file: string): Promise<string[][]> {
  let content: unknown;
  try {
    content = JSON.parse(await readFile(file, 'utf8'));
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    throw new Error(`cannot read --restore-keys ${file}: ${code === 'ENOENT' ? 'no such file' : code ? code : 'not JSON'}`);
  }
  const clusters = (content as { clusters?: unknown } | null)?.clusters;
  const lists = clusters && typeof clusters === 'object' ? Object.values(clusters as Record<string, { key_shares?: unknown }>).map((c) => c?.key_shares) : [];
  const valid = lists.filter((l): l is string[] => Array.isArray(l) && l.length > 0 && l.every((s) => typeof s === 'string'));
  if (valid.length === 0) throw new Error(`cannot read --restore-keys ${file}: no "clusters.<name>.key_shares" lists (expected a file written by --init-out)`);
  return valid;
}
