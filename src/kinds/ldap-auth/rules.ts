import type { Diagnostics } from '../../core/diagnostics.js';
import type { ResolvedDocument } from '../../load/document.js';
import type { KindContext } from '../kind.js';
import { groupByMount } from './mounts.js';
import { checkConfigConsistency } from './rules-consistency.js';
import { checkConfigFields } from './rules-fields.js';
import { checkMerge } from './rules-merge.js';
import { checkMountOverlaps, checkMountPath } from '../auth-mount/rules.js';
import { checkNameForms, checkNames } from './rules-names.js';
import { checkPem } from './rules-pem.js';
import { boolOf } from '../../values/index.js';
import { asLdapDocuments, DEFAULT_MOUNT, type LdapAuthDocument } from './types.js';
import { reportAtKey } from './report.js';
import { LDAP_WRITE_ONLY_FIELDS } from './schema-fields.js';
import { checkManagedElsewhere } from '../write-only.js';

/**
 * The spec's semantic rules over all LdapAuth documents (schema-valid, references resolved,
 * placed): each problem is its own diagnostic at the offending value. `_ctx` is part of the
 * KindModule signature; placement has already checked clusters.
 */
export function validateLdapAuth(docs: ReadonlyArray<ResolvedDocument>, diags: Diagnostics, _ctx: KindContext): void {
  const ldapDocs = asLdapDocuments(docs);
  for (const doc of ldapDocs) {
    checkValueRules(doc, diags);
    checkConfigConsistency(doc, diags);
    checkDocumentLists(doc, diags);
  }
  const groups = groupByMount(ldapDocs);
  checkMountOverlaps(groups, diags);
  for (const group of groups) {
    checkMerge(group, diags);
    checkNames(group, diags);
  }
  // A document whose mount is refused belongs to no mount group; its names are checked all the same (every problem at once).
  const grouped = new Set(groups.flatMap((g) => g.docs));
  for (const doc of ldapDocs) {
    if (grouped.has(doc)) continue;
    checkNames({ cluster: doc.data.cluster, namespace: doc.data.namespace, mount: DEFAULT_MOUNT, docs: [doc], caseSensitiveNames: boolOf(doc.data.config?.case_sensitive_names) ?? false }, diags);
  }
}

/**
 * The rules about single values of one document (KindModule.checkValues): its mount path, each
 * config value's own form, its certificates and key, its group and user names. Any shape.
 */
export function checkLdapValues(doc: ResolvedDocument, diags: Diagnostics): void {
  checkValueRules(asLdapDocuments([doc])[0]!, diags);
}

function checkValueRules(doc: LdapAuthDocument, diags: Diagnostics): void {
  checkMountPath(doc, diags);
  checkConfigFields(doc, diags);
  checkPem(doc, diags);
  checkNameForms(doc, diags);
}

/** `managedElsewhere` and `acknowledge` are about a config: only the document with `config` has them. */
function checkDocumentLists(doc: LdapAuthDocument, diags: Diagnostics): void {
  for (const field of ['managedElsewhere', 'acknowledge'] as const) {
    if (doc.data[field] !== undefined && doc.data.config === undefined) {
      reportAtKey(diags, doc, [field], `is about the mount's config: give it in the document that has config`);
    }
  }
  checkManagedElsewhere(doc, doc.data.managedElsewhere, doc.data.config, LDAP_WRITE_ONLY_FIELDS, diags);
}
