/**
 * Matches the differences found against the known ones: each found difference is explained by
 * an entry naming its case and its member, or it is unexplained; an entry (or one of its case or
 * member patterns) that explains nothing found is stale.
 */
import type { Difference } from './compare.js';
import type { KnownDifference } from './differences.js';

/** `*` stands for any run of characters; the rest is literal. */
function glob(pattern: string): RegExp {
  return new RegExp(`^${pattern.split('*').map((part) => part.replace(/[.+?^${}()|[\]\\]/g, '\\$&')).join('.*')}$`);
}

export function explains(entry: KnownDifference, found: Difference): boolean {
  return entry.cases.some((c) => glob(c).test(found.case)) && entry.at.some((a) => glob(a).test(found.at));
}

export function unexplained(found: readonly Difference[], known: readonly KnownDifference[]): Difference[] {
  return found.filter((d) => !known.some((entry) => explains(entry, d)));
}

/** Each stale part of the known differences, as a sentence. */
export function stale(found: readonly Difference[], known: readonly KnownDifference[]): string[] {
  const problems: string[] = [];
  for (const entry of known) {
    const mine = found.filter((d) => explains(entry, d));
    for (const c of entry.cases) {
      if (!mine.some((d) => glob(c).test(d.case))) problems.push(`"${entry.differs}": case ${c} differs no more at ${entry.at.join(', ')}`);
    }
    for (const a of entry.at) {
      if (!mine.some((d) => glob(a).test(d.at))) problems.push(`"${entry.differs}": nothing differs at ${a} in ${entry.cases.join(', ')}`);
    }
  }
  return problems;
}
