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
