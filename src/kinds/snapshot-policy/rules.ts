import type { Diagnostics } from '../../core/diagnostics.js';
import type { ResolvedDocument } from '../../load/document.js';
import type { KindContext } from '../kind.js';
import { groupByScope } from './policies.js';
import { checkConfigFields } from './rules-fields.js';
import { checkName, checkNamespace, checkScope } from './rules-names.js';
import { checkStorageRules } from './rules-storage.js';
import { asSnapshotDocuments } from './types.js';

/**
 * The spec's rules over all SnapshotPolicy documents (schema-valid, references resolved,
 * placed): each problem is its own diagnostic at the offending value. `_ctx` is part of the
 * KindModule signature; placement has already checked clusters.
 */
export function validateSnapshotPolicies(docs: ReadonlyArray<ResolvedDocument>, diags: Diagnostics, _ctx: KindContext): void {
  const snapshotDocs = asSnapshotDocuments(docs);
  for (const doc of snapshotDocs) {
    checkName(doc, diags);
    checkNamespace(doc, diags);
    checkConfigFields(doc, diags);
    checkStorageRules(doc, diags);
  }
  for (const group of groupByScope(snapshotDocs)) checkScope(group, diags);
}
