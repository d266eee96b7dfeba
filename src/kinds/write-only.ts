/**
 * The write-only rule of the contract (section 5), shared by the kinds that have write-only
 * fields: a write-only field the manifest sets is sent with every write of its object; one it
 * does not set is sent empty (cleared, and the plan says so), unless the document names it in
 * `managedElsewhere`: then it is never sent, and whatever the server holds stays.
 */
import type { Diagnostics } from '../core/diagnostics.js';
import type { Secret } from '../core/secret.js';
import type { ResolvedDocument } from '../load/document.js';
import { reportAt } from './report.js';

/** The document-level field that names write-only fields lockstep leaves alone. */
const MANAGED_ELSEWHERE = 'managedElsewhere';

/**
 * The write-only values of one object as apply sends them: the manifest's value, `''` for a
 * field it does not set (cleared), nothing for a field managed elsewhere.
 */
export function writeOnlyValues(
  config: Readonly<Record<string, unknown>>,
  fields: readonly string[],
  managedElsewhere: readonly string[] | undefined,
): Record<string, Secret | string> {
  const elsewhere = new Set(managedElsewhere ?? []);
  const values: Record<string, Secret | string> = {};
  for (const field of fields) {
    const value = config[field];
    if (value !== undefined && value !== null) values[field] = value as Secret | string;
    else if (!elsewhere.has(field)) values[field] = '';
  }
  return values;
}

/**
 * `managedElsewhere` names write-only fields of this object (`fields`, the kind's or the key
 * type's), each once, none that the config also sets (the two would contradict each other).
 * The schema checks the names where it can; this names the field the list is about.
 */
export function checkManagedElsewhere(
  doc: ResolvedDocument<unknown>,
  list: readonly unknown[] | undefined,
  config: Readonly<Record<string, unknown>> | undefined,
  fields: readonly string[],
  diags: Diagnostics,
): void {
  if (list === undefined) return;
  const seen = new Set<string>();
  list.forEach((name, i) => {
    const at = [MANAGED_ELSEWHERE, i];
    if (typeof name !== 'string' || !fields.includes(name)) {
      const known = fields.length > 0 ? `one of ${fields.join(', ')}` : 'none here';
      reportAt(diags, doc, at, `${JSON.stringify(name)} is not a write-only field of this object (${known})`);
    } else if (seen.has(name)) {
      reportAt(diags, doc, at, `${name} is named twice`);
    } else if (config !== undefined && config[name] !== undefined && config[name] !== null) {
      reportAt(diags, doc, at, `${name} is also set at config.${name}: a field is either set here or managed elsewhere`);
    }
    if (typeof name === 'string') seen.add(name);
  });
}
