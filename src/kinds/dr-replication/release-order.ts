import { compareReleases, type Release } from '../../values/index.js';
import { follows } from './observed.js';
import { listNames } from './sequence-builder.js';
import type { SimState } from './simulator.js';

/**
 * The spec's versioning rule 4: replicating from a newer release to an older one is unsafe, so a
 * DR primary never runs a newer release than a secondary that follows it. Only secondaries that
 * follow the primary count: they are the ones it replicates to (a demoted old primary following
 * none receives nothing until a step attaches it). Pure.
 */
export const SKEW_ACKNOWLEDGEMENT = 'primary-newer-than-secondary';

/** A primary on a newer release than a secondary that follows it. */
export interface ReleaseSkew {
  primary: string;
  primaryRelease: Release;
  secondary: string;
  secondaryRelease: Release;
}

/** Every skew of a state, primaries then secondaries by name; clusters of unknown release are not judged. */
export function skewsOf(state: SimState, releases: ReadonlyMap<string, Release>): ReleaseSkew[] {
  const skews: ReleaseSkew[] = [];
  const names = [...state.clusters.keys()].sort();
  for (const primary of names) {
    const p = state.clusters.get(primary)!;
    const primaryRelease = releases.get(primary);
    if (p.state !== 'primary' || !primaryRelease) continue;
    for (const secondary of names) {
      const secondaryRelease = releases.get(secondary);
      if (!secondaryRelease || !follows(secondary, state.clusters.get(secondary)!, p)) continue;
      if (compareReleases(primaryRelease, secondaryRelease) > 0) skews.push({ primary, primaryRelease, secondary, secondaryRelease });
    }
  }
  return skews;
}

/** `east (1.21.1+ent) over west (1.21.0+ent)`, one per skew. */
export function describeSkews(skews: readonly ReleaseSkew[]): string {
  return listNames(skews.map((s) => `${s.primary} (${s.primaryRelease.reported}) over ${s.secondary} (${s.secondaryRelease.reported})`));
}

/** The safe order, said for these skews: each older secondary upgraded to its primary's release first. */
export function safeOrder(skews: readonly ReleaseSkew[]): string {
  const older = [...new Map(skews.map((s) => [s.secondary, s])).values()];
  return `secondaries are upgraded first: bring ${listNames(older.map((s) => `${s.secondary} to ${s.primaryRelease.reported} or later`))} before ${older.length === 1 ? 'it follows' : 'they follow'} a primary on that release`;
}

/** The sentence shown on each step of an acknowledged plan after which a skew stands. */
export function skewWarning(skews: readonly ReleaseSkew[]): string {
  return `warning: after this step ${describeSkews(skews)}: a DR primary replicates to an older release (acknowledged as ${SKEW_ACKNOWLEDGEMENT})`;
}
