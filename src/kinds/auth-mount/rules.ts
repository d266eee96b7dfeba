import type { Diagnostics } from '../../core/diagnostics.js';
import { segmentProblem } from '../../core/path-segment.js';
import type { ResolvedDocument } from '../../load/document.js';
import { reportAt } from '../report.js';

/**
 * `mount` becomes one address segment (`sys/auth/<mount>`; reading an address back takes the
 * last segment as the mount), so it is a single path segment.
 */
export function checkMountPath(doc: ResolvedDocument<{ mount?: string }>, diags: Diagnostics): void {
  const mount = doc.data.mount;
  if (mount === undefined) return;
  const problem = segmentProblem(mount) ?? (/\s/.test(mount) ? 'must not contain spaces' : undefined);
  if (problem) reportAt(diags, doc, ['mount'], `${JSON.stringify(mount)} ${problem}`);
}
