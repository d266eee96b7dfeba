import type { Diagnostics, Severity } from '../../core/diagnostics.js';
import type { ValuePath } from '../../load/document.js';
import { atPath } from '../../load/value-path.js';
import type { LdapAuthDocument } from './types.js';

/** Reports `<path>: <message>` at the value at `path` of `doc`. */
export function reportAt(
  diags: Diagnostics,
  doc: LdapAuthDocument,
  path: ValuePath,
  message: string,
  severity: Severity = 'error',
): void {
  diags.add({ severity, message: atPath(path, message), pos: doc.source.pos(path) });
}

/** Reports `<path>: <message>` at the key of `path` (for names: groups, users, config). */
export function reportAtKey(diags: Diagnostics, doc: LdapAuthDocument, path: ValuePath, message: string): void {
  diags.error(atPath(path, message), doc.source.keyPos(path));
}
