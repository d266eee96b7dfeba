import type { Diagnostics } from '../../core/diagnostics.js';
import type { ResolvedDocument } from '../../load/document.js';
import type { KindContext } from '../kind.js';
import { groupByScope } from './policies.js';
import { checkConfigValues, checkRequiredConfig } from './rules-fields.js';
import { checkName, checkNamespace, checkScope } from './rules-names.js';
import { checkStorageRules } from './rules-storage.js';
import { asSnapshotDocuments, type SnapshotPolicyDocument } from './types.js';

/**
 * The spec's rules over all SnapshotPolicy documents (schema-valid, references resolved,
 * placed): each problem is its own diagnostic at the offending value. `_ctx` is part of the
 * KindModule signature; placement has already checked clusters.
 */
export function validateSnapshotPolicies(docs: ReadonlyArray<ResolvedDocument>, diags: Diagnostics, _ctx: KindContext): void {
  const snapshotDocs = asSnapshotDocuments(docs);
  for (const doc of snapshotDocs) {
    checkValueRules(doc, diags);
    checkRequiredConfig(doc, diags);
    checkStorageRules(doc, diags);
  }
  for (const group of groupByScope(snapshotDocs)) checkScope(group, diags);
}

/** The rules about single values of one document (KindModule.checkValues): its name, its namespace, each config value's form. Any shape. */
export function checkSnapshotValues(source: ResolvedDocument, diags: Diagnostics): void {
  checkValueRules(asSnapshotDocuments([source])[0]!, diags);
}

function checkValueRules(doc: SnapshotPolicyDocument, diags: Diagnostics): void {
  if (typeof doc.data.name === 'string') checkName(doc, diags);
  checkNamespace(doc, diags);
  checkConfigValues(doc, diags);
}
