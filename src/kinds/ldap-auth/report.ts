import type { Diagnostics } from '../../core/diagnostics.js';
import type { ValuePath } from '../../load/document.js';
import { atPath } from '../../load/value-path.js';
import type { LdapAuthDocument } from './types.js';

export { reportAt } from '../report.js';

/** Reports `<path>: <message>` at the key of `path` (for names: groups, users, config). */
export function reportAtKey(diags: Diagnostics, doc: LdapAuthDocument, path: ValuePath, message: string): void {
  diags.error(atPath(path, message), doc.source.keyPos(path));
}
