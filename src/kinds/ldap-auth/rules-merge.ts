import { formatPos, type Diagnostics } from '../../core/diagnostics.js';
import { segmentProblem } from '../../core/path-segment.js';
import { checkPruneAgreement } from '../report.js';
import { describeMount, type MountGroup } from './mounts.js';
import { reportAt, reportAtKey } from './report.js';
import type { LdapAuthDocument } from './types.js';

/**
 * `mount` becomes one address segment (`sys/auth/<mount>`; reading an address back takes the
 * last segment as the mount), so it is a single path segment.
 */
export function checkMountPath(doc: LdapAuthDocument, diags: Diagnostics): void {
  const mount = doc.data.mount;
  if (mount === undefined) return;
  const problem = segmentProblem(mount) ?? (/\s/.test(mount) ? 'must not contain spaces' : undefined);
  if (problem) reportAt(diags, doc, ['mount'], `${JSON.stringify(mount)} ${problem}`);
}

/**
 * The documents of one mount merge: at most one may have `config`, and those that set `prune`
 * must agree (one document silently deleting what another leaves alone would surprise).
 */
export function checkMerge(group: MountGroup, diags: Diagnostics): void {
  const first = group.configDoc;
  for (const doc of group.docs) {
    if (first && doc !== first && doc.data.config !== undefined) {
      reportAtKey(
        diags,
        doc,
        ['config'],
        `${describeMount(group)} already has its config at ${formatPos(first.source.keyPos(['config']))}; at most one LdapAuth document per mount may have config`,
      );
    }
  }
  checkPruneAgreement(group.docs, diags, `documents of ${describeMount(group)} merge`);
}
