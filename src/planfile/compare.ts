import type { Change } from '../core/plan.js';
import { samePlan, type SavedPlan } from './planfile.js';

/**
 * Why a plan made now (`fresh`) would not do exactly what the reviewed one (`reviewed`) showed:
 * one line per difference, none when they are the same. "The same" is apply's own rule for a
 * saved plan (samePlan: the changes, their values and order) and the same servers
 * (clusterAddresses): CI's re-plan path applies a fresh plan on the merge commit only when
 * nothing is listed here. The lines name addresses and actions, never values.
 */
export function planDifferences(reviewed: SavedPlan, fresh: SavedPlan): string[] {
  const lines = movedClusterLines(reviewed, fresh);
  const before = keyed(reviewed.plan.changes);
  const now = keyed(fresh.plan.changes);
  for (const [key, change] of now) {
    const old = before.get(key);
    if (old === undefined) lines.push(`+ ${key} (${change.action}): not in the reviewed plan`);
    else if (!samePlan({ ...reviewed.plan, changes: [old] }, { ...fresh.plan, changes: [change] })) lines.push(`~ ${key}: ${howDifferent(old, change)}`);
  }
  for (const [key, change] of before) if (!now.has(key)) lines.push(`- ${key} (${change.action}): reviewed, no longer planned`);
  if (lines.length === 0 && !samePlan(reviewed.plan, fresh.plan)) lines.push('the same changes, in another order');
  return lines;
}

function movedClusterLines(reviewed: SavedPlan, fresh: SavedPlan): string[] {
  const was = reviewed.clusterAddresses ?? {};
  const is = fresh.clusterAddresses ?? {};
  return [...new Set([...Object.keys(was), ...Object.keys(is)])]
    .sort()
    .filter((cluster) => was[cluster] !== undefined && is[cluster] !== undefined && was[cluster] !== is[cluster])
    .map((cluster) => `cluster "${cluster}": reviewed at ${was[cluster]}, planned now at ${is[cluster]}`);
}

/** Changes by address; a second change at one address (never made today) keyed apart, not lost. */
function keyed(changes: readonly Change[]): Map<string, Change> {
  const out = new Map<string, Change>();
  for (const change of changes) {
    const address = change.address.toString();
    let key = address;
    for (let n = 2; out.has(key); n++) key = `${address} (#${n})`;
    out.set(key, change);
  }
  return out;
}

function howDifferent(reviewed: Change, fresh: Change): string {
  if (reviewed.action !== fresh.action) return `reviewed as ${reviewed.action}, planned now as ${fresh.action}`;
  const fields = [...new Set([...reviewed.changedFields, ...fresh.changedFields])].sort();
  const differing = fields.filter((f) => JSON.stringify(reviewed.before?.[f]) !== JSON.stringify(fresh.before?.[f]) || JSON.stringify(reviewed.after?.[f]) !== JSON.stringify(fresh.after?.[f]));
  if (differing.length > 0) return `${fresh.action} with other values of ${differing.join(', ')} than reviewed`;
  if (JSON.stringify(reviewed.changedFields) !== JSON.stringify(fresh.changedFields)) return `${fresh.action} of other fields than reviewed`;
  return `${fresh.action} planned otherwise than reviewed (its dependencies, guards or notes)`;
}
