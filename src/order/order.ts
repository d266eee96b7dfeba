import { Address, AddressMap } from '../core/address.js';
import { NAMESPACE_RESOURCE_TYPE, namespaceAddress, namespaceOf } from '../core/namespace-path.js';
import type { Change } from '../core/plan.js';

/**
 * Orders changes for execution: writes (create, update, transition) in dependency order, then
 * deletes in reverse address order, so children (users) go before what they name (groups).
 * A delete that a write depends on (the first half of a replace) is ordered with the writes,
 * before it. Every write inside a namespace that the plan creates or updates depends on that
 * namespace's change (withNamespaceDependencies), whatever kind planned it. Dependencies on
 * objects that are not changing are dropped: they already exist.
 * Pure. Throws on a dependency cycle (a bug in a kind, never a user error).
 */
export function orderChanges(planned: readonly Change[]): Change[] {
  const changes = withNamespaceDependencies(planned);
  const inPlan = new Set(changes.map((c) => c.address.toString()));
  const neededByWrites = new Set(changes.filter((c) => c.action !== 'delete').flatMap((c) => c.dependsOn.map(String)));
  const isEarly = (c: Change): boolean => c.action !== 'delete' || neededByWrites.has(c.address.toString());
  const deletes = changes.filter((c) => !isEarly(c)).sort((a, b) => Address.compare(b.address, a.address));
  return [...topological(changes.filter(isEarly)), ...deletes].map((c) => {
    const dependsOn = c.dependsOn.filter((d) => inPlan.has(d.toString()));
    // A change all of whose dependencies are in the plan is kept as it is (changes are never mutated).
    return dependsOn.length === c.dependsOn.length ? c : { ...c, dependsOn };
  });
}

/**
 * A namespace is made before anything in it: each write whose address lies in a namespace
 * (core/namespace-path namespaceOf; a namespace object lies in its parent) depends on the
 * write of that namespace when the plan holds one. Other changes are returned as they are.
 */
function withNamespaceDependencies(changes: readonly Change[]): readonly Change[] {
  const namespaceWrites = new Set(changes.filter((c) => c.action !== 'delete' && c.resourceType === NAMESPACE_RESOURCE_TYPE).map((c) => c.address.toString()));
  if (namespaceWrites.size === 0) return changes;
  return changes.map((c) => {
    const namespace = c.action === 'delete' ? '' : namespaceOf(c.address);
    if (namespace === '') return c;
    const parent = namespaceAddress(c.address.cluster, namespace);
    if (!namespaceWrites.has(parent.toString()) || c.dependsOn.some((d) => d.equals(parent))) return c;
    return { ...c, dependsOn: [...c.dependsOn, parent] };
  });
}

function topological(changes: readonly Change[]): Change[] {
  const byAddress = new AddressMap<Change>();
  for (const c of changes) byAddress.set(c.address, c);
  // The planners give their changes in address order already: sorted again only when not.
  const inOrder = changes.every((c, i) => i === 0 || Address.compare(changes[i - 1]!.address, c.address) <= 0);
  const sorted = inOrder ? changes : [...changes].sort((a, b) => Address.compare(a.address, b.address));
  const state = new AddressMap<'visiting' | 'done'>();
  const out: Change[] = [];
  // The chain being visited, for the message of a cycle.
  const path: Address[] = [];
  const visit = (c: Change): void => {
    const s = state.get(c.address);
    if (s === 'done') return;
    if (s === 'visiting') throw new Error(`dependency cycle: ${[...path, c.address].join(' -> ')}`);
    state.set(c.address, 'visiting');
    path.push(c.address);
    const deps = c.dependsOn.length > 1 ? [...c.dependsOn].sort(Address.compare) : c.dependsOn;
    for (const d of deps) {
      const dep = byAddress.get(d);
      if (dep) visit(dep);
    }
    path.pop();
    state.set(c.address, 'done');
    out.push(c);
  };
  for (const c of sorted) visit(c);
  return out;
}

/**
 * `--target`: the changes at or below any target address, plus (as Terraform does) every
 * change they depend on, transitively. Pure.
 */
export function selectTargets(changes: readonly Change[], targets: readonly Address[]): Change[] {
  if (targets.length === 0) return [...changes];
  const keep = new AddressMap<true>();
  const byAddress = new AddressMap<Change>();
  for (const c of changes) byAddress.set(c.address, c);
  const add = (c: Change): void => {
    if (keep.has(c.address)) return;
    keep.set(c.address, true);
    for (const d of c.dependsOn) {
      const dep = byAddress.get(d);
      if (dep) add(dep);
    }
  };
  for (const c of changes) if (targets.some((t) => c.address.isWithin(t))) add(c);
  return changes.filter((c) => keep.has(c.address));
}
