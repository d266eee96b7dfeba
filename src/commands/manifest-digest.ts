import { createHash } from 'node:crypto';
import type { Prepared } from '../validate/prepare.js';

/**
 * Digest of what the manifests say, for the saved-plan check. Built from the documents as
 * loaded (references unresolved, so no secret goes into it) and the cluster addresses.
 */
export function manifestDigest(prepared: Prepared): string {
  const h = createHash('sha256');
  for (const [name, t] of [...prepared.clusters].sort(([a], [b]) => (a < b ? -1 : 1))) h.update(`cluster\0${name}\0${t.address}\0`);
  const docs = [...prepared.documents.values()].flat().map((d) => d.source);
  docs.sort((a, b) => (a.absoluteFile === b.absoluteFile ? a.index - b.index : a.absoluteFile < b.absoluteFile ? -1 : 1));
  for (const d of docs) h.update(`${d.absoluteFile}\0${d.index}\0${JSON.stringify(d.value)}\0`);
  return h.digest('hex');
}
