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
  const { early, late } = splitDeletes(changes);
  const sorted = inAddressOrder(early);
  // Changes numbered by their place in address order; two of one address share the later one's number.
  const numberOf = new Map<string, number>();
  sorted.forEach((c, i) => numberOf.set(c.address.toString(), i));
  // Without late deletes, the changes being ordered are the whole plan.
  const inPlan: ReadonlySet<string> | ReadonlyMap<string, number> = late.length === 0 ? numberOf : new Set(changes.map((c) => c.address.toString()));
  const deletes = late.sort((a, b) => Address.compare(b.address, a.address));
  return [...topological(sorted, numberOf), ...deletes].map((c) => withDependenciesIn(inPlan, c));
}

/**
 * The writes with the deletes a write depends on (the first half of a replace), and the other
 * deletes, each in plan order. Most plans delete nothing: then the writes are all of it.
 */
function splitDeletes(changes: readonly Change[]): { early: readonly Change[]; late: Change[] } {
  if (!changes.some((c) => c.action === 'delete')) return { early: changes, late: [] };
  const neededByWrites = new Set<string>();
  for (const c of changes) if (c.action !== 'delete') for (const d of c.dependsOn) neededByWrites.add(d.toString());
  const early: Change[] = [];
  const late: Change[] = [];
  for (const c of changes) (c.action !== 'delete' || neededByWrites.has(c.address.toString()) ? early : late).push(c);
  return { early, late };
}

/** The planners give their changes in address order already: sorted again only when not. */
function inAddressOrder(changes: readonly Change[]): readonly Change[] {
  const inOrder = changes.every((c, i) => i === 0 || Address.compare(changes[i - 1]!.address, c.address) <= 0);
  return inOrder ? changes : [...changes].sort((a, b) => Address.compare(a.address, b.address));
}

/**
 * The change without its dependencies on objects the plan does not change (they exist already);
 * the change itself when it has none (changes are never mutated). One look-up per dependency.
 */
function withDependenciesIn(inPlan: { has(key: string): boolean }, c: Change): Change {
  let kept: Address[] | undefined;
  c.dependsOn.forEach((d, i) => {
    if (inPlan.has(d.toString())) kept?.push(d);
    else kept ??= c.dependsOn.slice(0, i);
  });
  return kept ? { ...c, dependsOn: kept } : c;
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

/**
 * Dependencies first (depth first, each change's dependencies in Address order), ties broken
 * by Address. `sorted` is in address order and `numberOf` gives each address's place in it, so
 * the walk's bookkeeping is arrays, and a change's dependencies are put in order by number.
 */
function topological(sorted: readonly Change[], numberOf: ReadonlyMap<string, number>): Change[] {
  const state = new Uint8Array(sorted.length); // 0: not seen, 1: being visited, 2: done
  const out: Change[] = [];
  // The chain being visited, for the message of a cycle.
  const path: Address[] = [];
  const visit = (n: number, c: Change): void => {
    if (state[n] === 2) return;
    if (state[n] === 1) throw new Error(`dependency cycle: ${[...path, c.address].join(' -> ')}`);
    state[n] = 1;
    path.push(c.address);
    for (const d of dependencyNumbers(c, numberOf)) visit(d, sorted[d]!);
    path.pop();
    state[n] = 2;
    out.push(c);
  };
  const unique = numberOf.size === sorted.length;
  sorted.forEach((c, i) => visit(unique ? i : numberOf.get(c.address.toString())!, c));
  return out;
}

/** The numbers of a change's dependencies that are being ordered, ascending (Address order). */
function dependencyNumbers(c: Change, numberOf: ReadonlyMap<string, number>): readonly number[] {
  const found: number[] = [];
  for (const d of c.dependsOn) {
    const n = numberOf.get(d.toString());
    if (n !== undefined) found.push(n);
  }
  return found.length > 1 ? found.sort((a, b) => a - b) : found;
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
