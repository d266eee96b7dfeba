/** Diagnostics helpers the kinds' rules share. */
import { formatPos, type Diagnostics, type Severity } from '../core/diagnostics.js';
import type { ResolvedDocument, ValuePath } from '../load/document.js';
import { atPath } from '../load/value-path.js';

/** Reports `<path>: <message>` at the value at `path` of `doc`. */
export function reportAt(diags: Diagnostics, doc: ResolvedDocument<unknown>, path: ValuePath, message: string, severity: Severity = 'error'): void {
  diags.add({ severity, origin: 'manifest', message: atPath(path, message), pos: doc.source.pos(path) });
}

/**
 * The documents of one collection that set `prune` must agree (one document silently deleting
 * what another leaves alone would surprise): each that differs from the first is reported at
 * its `prune`, naming the first. `why` says what makes them one collection.
 */
export function checkPruneAgreement(docs: ReadonlyArray<ResolvedDocument<{ prune?: boolean }>>, diags: Diagnostics, why: string): void {
  const firstPrune = docs.find((d) => d.data.prune !== undefined);
  for (const doc of docs) {
    if (firstPrune && doc.data.prune !== undefined && doc.data.prune !== firstPrune.data.prune) {
      reportAt(diags, doc, ['prune'], `disagrees with prune: ${String(firstPrune.data.prune)} at ${formatPos(firstPrune.source.pos(['prune']))} (${why})`);
    }
  }
}
