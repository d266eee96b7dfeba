import type { Diagnostics, Severity } from '../../core/diagnostics.js';
import type { ValuePath } from '../../load/document.js';
import { atPath } from '../../load/value-path.js';
import type { ManagedKeyDocument } from './types.js';

/** Reports `<path>: <message>` at the value at `path` of `doc`. */
export function reportAt(diags: Diagnostics, doc: ManagedKeyDocument, path: ValuePath, message: string, severity: Severity = 'error'): void {
  diags.add({ severity, message: atPath(path, message), pos: doc.source.pos(path) });
}
