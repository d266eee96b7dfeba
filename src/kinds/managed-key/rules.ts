import type { Diagnostics } from '../../core/diagnostics.js';
import type { ResolvedDocument } from '../../load/document.js';
import type { KindContext } from '../kind.js';
import { checkBackend } from './rules-backend.js';
import { checkConfigValues } from './rules-fields.js';
import { checkName, checkUniqueNames } from './rules-names.js';
import { asManagedKeyDocuments, isKeyType } from './types.js';
import { secretFieldsOf } from './fields.js';
import { checkManagedElsewhere } from '../write-only.js';

/**
 * The spec's semantic rules over all ManagedKey documents (schema-valid, references resolved,
 * placed): each problem is its own diagnostic at the offending value.
 */
export function validateManagedKeys(docs: ReadonlyArray<ResolvedDocument>, diags: Diagnostics, _ctx: KindContext): void {
  const keys = asManagedKeyDocuments(docs);
  for (const doc of keys) {
    checkName(doc, diags);
    checkConfigValues(doc, diags);
    checkBackend(doc, diags);
    const secrets = isKeyType(doc.data.type) ? secretFieldsOf(doc.data.type).map((f) => f.name) : [];
    checkManagedElsewhere(doc, doc.data.managedElsewhere, doc.data.config, secrets, diags);
  }
  checkUniqueNames(keys, diags);
}
