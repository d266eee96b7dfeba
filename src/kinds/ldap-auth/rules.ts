import type { Diagnostics } from '../../core/diagnostics.js';
import type { ResolvedDocument } from '../../load/document.js';
import type { KindContext } from '../kind.js';
import { groupByMount } from './mounts.js';
import { checkConfigConsistency } from './rules-consistency.js';
import { checkConfigFields } from './rules-fields.js';
import { checkMerge, checkMountPath } from './rules-merge.js';
import { checkNames } from './rules-names.js';
import { checkPem } from './rules-pem.js';
import { asLdapDocuments } from './types.js';

/**
 * The spec's semantic rules over all LdapAuth documents (schema-valid, references resolved,
 * placed): each problem is its own diagnostic at the offending value. `ctx` is part of the
 * KindModule signature; placement has already checked clusters.
 */
export function validateLdapAuth(docs: ReadonlyArray<ResolvedDocument>, diags: Diagnostics, ctx: KindContext): void {
  void ctx;
  const ldapDocs = asLdapDocuments(docs);
  for (const doc of ldapDocs) {
    checkMountPath(doc, diags);
    checkConfigFields(doc, diags);
    checkConfigConsistency(doc, diags);
    checkPem(doc, diags);
  }
  for (const group of groupByMount(ldapDocs)) {
    checkMerge(group, diags);
    checkNames(group, diags);
  }
}
