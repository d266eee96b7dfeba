import type { Diagnostics, Severity } from '../../core/diagnostics.js';
import { isSecret } from '../../core/secret.js';
import type { ValuePath } from '../../load/document.js';
import { atPath } from '../../load/value-path.js';
import type { SnapshotPolicyDocument } from './types.js';

/** Reports `<path>: <message>` at the value at `path` of `doc`. */
export function reportAt(
  diags: Diagnostics,
  doc: SnapshotPolicyDocument,
  path: ValuePath,
  message: string,
  severity: Severity = 'error',
): void {
  diags.add({ severity, message: atPath(path, message), pos: doc.source.pos(path) });
}

/** The text of a string or Secret value ('' for anything else); never shown to anyone. */
export function textOf(value: unknown): string {
  if (isSecret(value)) return value.reveal();
  return typeof value === 'string' ? value : '';
}

/** The field is given with a non-empty value (a Secret counts by its text). */
export function isGiven(value: unknown): boolean {
  if (value === undefined || value === null) return false;
  if (typeof value === 'string' || isSecret(value)) return textOf(value) !== '';
  return true;
}
