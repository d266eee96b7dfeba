import { formatPos, type Diagnostics, type SourcePos } from '../../core/diagnostics.js';
import { segmentProblem } from '../../core/path-segment.js';
import { checkPruneAgreement } from '../report.js';
import { describeScope } from './addresses.js';
import type { ScopeGroup } from './policies.js';
import { reportAt } from './report.js';
import type { SnapshotPolicyDocument } from './types.js';

/** A name is one path segment of `.../snapshot-auto/config/<name>`. */
export function checkName(doc: SnapshotPolicyDocument, diags: Diagnostics): void {
  const name = doc.data.name;
  const problem = segmentProblem(name) ?? (/\s/.test(name) ? 'must not contain spaces' : undefined);
  if (problem) reportAt(diags, doc, ['name'], `${JSON.stringify(name)} ${problem}`);
}

/**
 * Snapshot configurations exist only in the root namespace (the service serves
 * sys/storage/raft there alone): an explicit other namespace is refused. A cluster's default
 * namespace (placement filled it in) does not apply to them.
 */
export function checkNamespace(doc: SnapshotPolicyDocument, diags: Diagnostics): void {
  const written = (doc.source.value as { namespace?: unknown } | null)?.namespace;
  // Undefined in the data: refused by the schema or a reference, which said so already.
  if (written === undefined || doc.data.namespace === undefined || doc.data.namespace === '') return;
  reportAt(diags, doc, ['namespace'], 'snapshot policies exist only in the root namespace (sys/storage/raft is cluster-wide): leave namespace out');
}

/**
 * Within one cluster (across files): each name once, and the documents that set
 * `prune` agree (one document silently deleting what another leaves alone would surprise).
 */
export function checkScope(group: ScopeGroup, diags: Diagnostics): void {
  const seen = new Map<string, () => SourcePos>();
  for (const doc of group.docs) {
    const name = doc.data.name;
    const previous = seen.get(name);
    if (previous) {
      reportAt(diags, doc, ['name'], `snapshot policy "${name}" is already defined at ${formatPos(previous())} (${describeScope(group.scope)}); names are unique per cluster`);
    } else {
      seen.set(name, () => doc.source.pos(['name']));
    }
  }
  checkPruneAgreement(group.docs, diags, `the snapshot policies of ${describeScope(group.scope)} are one collection`);
}
