import { formatPos, type Diagnostics, type SourcePos } from '../../core/diagnostics.js';
import { segmentProblem } from '../../core/path-segment.js';
import { reportAt } from './report.js';
import type { ManagedKeyDocument } from './types.js';

/** `name` becomes one address segment and the server keys managed keys by lower-case name. */
export function checkName(doc: ManagedKeyDocument, diags: Diagnostics): void {
  const name = doc.data.name;
  const problem = segmentProblem(name) ?? (/\s/.test(name) ? 'must not contain spaces' : undefined);
  if (problem) {
    reportAt(diags, doc, ['name'], `${JSON.stringify(name)} ${problem}`);
  } else if (name !== name.toLowerCase()) {
    reportAt(diags, doc, ['name'], `must be lower-case (e.g. "${name.toLowerCase()}")`);
  }
}

/**
 * Names are unique across every key type of a namespace (the server refuses a second type with
 * the same name), across files: the second is reported, naming the first.
 */
export function checkUniqueNames(docs: readonly ManagedKeyDocument[], diags: Diagnostics): void {
  const seen = new Map<string, { type: string; at: () => SourcePos }>();
  for (const doc of docs) {
    const { cluster, namespace, name, type } = doc.data;
    const key = JSON.stringify([cluster, namespace, name.toLowerCase()]);
    const first = seen.get(key);
    if (!first) {
      seen.set(key, { type, at: () => doc.source.pos(['name']) });
      continue;
    }
    const where = `cluster ${cluster}${namespace === '' ? '' : `, namespace ${namespace}`}`;
    reportAt(
      diags,
      doc,
      ['name'],
      `managed key "${name}" is already defined at ${formatPos(first.at())} (type ${first.type}); names are unique across all key types of a namespace (${where})`,
    );
  }
}
