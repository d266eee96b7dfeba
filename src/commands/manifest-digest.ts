import { createHash } from 'node:crypto';
import type { Prepared } from '../validate/prepare.js';

/**
 * Digest of what the manifests say, for the saved-plan check. Built from the documents as
 * loaded (references unresolved, so no secret goes into it) and the cluster addresses. Which
 * file holds a document, and where that file lies, is left out: documents merge the same
 * whatever their files (the contract's merge rule), and a checkout at another path (the merge
 * job of a CI) says the same thing.
 */
export function manifestDigest(prepared: Prepared): string {
  const h = createHash('sha256');
  for (const [name, t] of [...prepared.clusters].sort(([a], [b]) => (a < b ? -1 : 1))) h.update(`cluster\0${name}\0${t.address}\0`);
  const docs = [...prepared.documents.values()].flat().map((d) => JSON.stringify(d.source.value));
  for (const text of docs.sort()) h.update(`${text}\0`);
  return h.digest('hex');
}
