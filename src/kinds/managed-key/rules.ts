import type { Diagnostics } from '../../core/diagnostics.js';
import type { ResolvedDocument } from '../../load/document.js';
import type { KindContext } from '../kind.js';
import { checkBackend } from './rules-backend.js';
import { checkConfigValues } from './rules-fields.js';
import { checkName, checkUniqueNames } from './rules-names.js';
import { asManagedKeyDocuments, isKeyType, type ManagedKeyDocument } from './types.js';
import { secretFieldsOf } from './fields.js';
import { checkManagedElsewhere } from '../write-only.js';

/**
 * The spec's semantic rules over all ManagedKey documents (schema-valid, references resolved,
 * placed): each problem is its own diagnostic at the offending value.
 */
export function validateManagedKeys(docs: ReadonlyArray<ResolvedDocument>, diags: Diagnostics, _ctx: KindContext): void {
  const keys = asManagedKeyDocuments(docs);
  for (const doc of keys) {
    checkValueRules(doc, diags);
    checkBackend(doc, diags);
    const secrets = isKeyType(doc.data.type) ? secretFieldsOf(doc.data.type).map((f) => f.name) : [];
    checkManagedElsewhere(doc, doc.data.managedElsewhere, doc.data.config, secrets, diags);
  }
  checkUniqueNames(keys, diags);
}

/** The rules about single values of one document (KindModule.checkValues): its name and each config value's own form. Any shape. */
export function checkManagedKeyValues(source: ResolvedDocument, diags: Diagnostics): void {
  checkValueRules(asManagedKeyDocuments([source])[0]!, diags);
}

function checkValueRules(doc: ManagedKeyDocument, diags: Diagnostics): void {
  const { name, type, config } = doc.data as Partial<ManagedKeyDocument['data']>;
  if (typeof name === 'string') checkName(doc, diags);
  if (isKeyType(type) && config !== null && typeof config === 'object') checkConfigValues(doc, diags);
}
