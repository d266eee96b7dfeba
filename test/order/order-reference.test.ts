import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { Address, AddressMap } from '../../src/core/address.js';
import type { Change } from '../../src/core/plan.js';
import { orderChanges } from '../../src/order/order.js';
import { change, east } from '../core/builders.js';

/**
 * The ordering as it was first written, plainly (a map by address, each change's dependencies
 * sorted by Address, every dependency looked up again to drop those outside the plan): the
 * numbered walk of order.ts must give the same changes, in the same order, with the same
 * dependencies kept, for any plan, shuffled, with repeated addresses, deletes a write depends
 * on and dependencies on objects that are not changing.
 */
function referenceOrder(changes: readonly Change[]): Change[] {
  const inPlan = new Set(changes.map((c) => c.address.toString()));
  const neededByWrites = new Set(changes.filter((c) => c.action !== 'delete').flatMap((c) => c.dependsOn.map(String)));
  const isEarly = (c: Change): boolean => c.action !== 'delete' || neededByWrites.has(c.address.toString());
  const deletes = changes.filter((c) => !isEarly(c)).sort((a, b) => Address.compare(b.address, a.address));
  const early = changes.filter(isEarly);
  const byAddress = new AddressMap<Change>();
  for (const c of early) byAddress.set(c.address, c);
  const state = new AddressMap<'visiting' | 'done'>();
  const out: Change[] = [];
  const visit = (c: Change): void => {
    const s = state.get(c.address);
    if (s === 'done') return;
    if (s === 'visiting') throw new Error('dependency cycle');
    state.set(c.address, 'visiting');
    for (const d of [...c.dependsOn].sort(Address.compare)) {
      const dep = byAddress.get(d);
      if (dep) visit(dep);
    }
    state.set(c.address, 'done');
    out.push(c);
  };
  for (const c of [...early].sort((a, b) => Address.compare(a.address, b.address))) visit(c);
  return [...out, ...deletes].map((c) => {
    const dependsOn = c.dependsOn.filter((d) => inPlan.has(d.toString()));
    return dependsOn.length === c.dependsOn.length ? c : { ...c, dependsOn };
  });
}

/** Paths that sort differently as text and by segment (`a-b` vs `a/b`), some nested in others. */
const PATHS = ['a', 'a/b', 'a/b/c', 'a-b', 'a/c', 'b', 'b/a', 'c', 'c/d/e', 'd', 'x/y', 'x-y', 'z'];

/** A plan over PATHS: only writes may depend, and only on paths after their own in PATHS, so no cycle. */
const plans = fc
  .array(
    fc.record({
      at: fc.nat(PATHS.length - 1),
      action: fc.constantFrom<Change['action']>('create', 'update', 'delete', 'transition'),
      deps: fc.uniqueArray(fc.nat(PATHS.length - 1), { maxLength: 4 }),
      tag: fc.nat(3),
    }),
    { maxLength: 14 },
  )
  .map((items) =>
    items.map(({ at, action, deps, tag }) =>
      change({
        address: east(PATHS[at]!),
        action,
        notes: [`#${tag}`],
        // Dependencies point forward in PATHS (no cycle); a delete's are kept too, as a planner could give.
        dependsOn: deps.filter((d) => d > at).map((d) => east(PATHS[d]!)),
      }),
    ),
  );

describe('orderChanges agrees with the plain reference', () => {
  it('on random plans, in any input order', () => {
    fc.assert(
      fc.property(plans, (plan) => {
        const got = orderChanges(plan);
        const want = referenceOrder(plan);
        expect(got.map((c) => [String(c.address), c.action, c.notes[0], c.dependsOn.map(String)])).toEqual(
          want.map((c) => [String(c.address), c.action, c.notes[0], c.dependsOn.map(String)]),
        );
        // A change whose dependencies are all in the plan is the very object given.
        got.forEach((c, i) => expect(c === want[i]).toBe(plan.includes(want[i]!)));
      }),
      { numRuns: 500, seed: 27 },
    );
  });
});
