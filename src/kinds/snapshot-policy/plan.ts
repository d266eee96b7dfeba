import type { Change } from '../../core/plan.js';
import type { DesiredState, LiveState } from '../../core/resource.js';
import { diffResources } from '../../diff/diff.js';
import type { KindPlan, PlanFlags } from '../kind.js';
import { describeDestination } from './destination.js';

/**
 * The generic field-by-field diff, with what a reader of the plan needs to know about
 * destinations: a change of destination (storage_type, bucket, directory, ...) says plainly
 * where snapshots went and where they will go, and lists the old type's fields that go away;
 * deleting a configuration leaves the snapshots already written where they are. Pure.
 */
export function planSnapshotPolicies(desired: DesiredState, live: LiveState, flags: PlanFlags): KindPlan {
  const { changes, unmanaged } = diffResources(desired, live, { syncSecrets: flags.syncSecrets });
  return { changes: changes.map(explain), unmanaged, notes: [], errors: [] };
}

function explain(change: Change): Change {
  switch (change.action) {
    case 'update':
      return explainUpdate(change);
    case 'delete':
      return { ...change, notes: [...change.notes, `snapshots already written to ${describeDestination(change.before)} are not deleted`] };
    case 'create':
    case 'transition':
      return change;
  }
}

function explainUpdate(change: Change): Change {
  const from = describeDestination(change.before);
  const to = describeDestination(change.after);
  if (from === to) return change;
  const before = change.before ?? {};
  const after = change.after ?? {};
  // Fields of the old storage type are not in the desired attrs: show them going away.
  const dropped = Object.keys(before).filter((k) => !(k in after));
  return {
    ...change,
    changedFields: [...change.changedFields, ...dropped].sort(),
    notes: [
      ...change.notes,
      `destination: ${from} -> ${to}`,
      `snapshots already written to ${from} stay there; retention counts only those at ${to}`,
    ],
  };
}
