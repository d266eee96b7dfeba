import { formatPos, type Diagnostics } from '../../core/diagnostics.js';
import { checkPruneAgreement } from '../report.js';
import { describeAuthMount } from '../auth-mount/mounts.js';
import type { MountGroup } from './mounts.js';
import { reportAtKey } from './report.js';

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
        `${describeAuthMount(group)} already has its config at ${formatPos(first.source.keyPos(['config']))}; at most one LdapAuth document per mount may have config`,
      );
    }
  }
  checkPruneAgreement(group.docs, diags, `documents of ${describeAuthMount(group)} merge`);
}
