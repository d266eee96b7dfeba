import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { Address, AddressMap } from '../../src/core/address.js';
import type { Change, Unmanaged } from '../../src/core/plan.js';
import type { DesiredResource, DesiredState, LiveResource, LiveState, ManagedCollection } from '../../src/core/resource.js';
import { diffResources, LiveDiff, type DiffResult } from '../../src/diff/diff.js';
import { deepFreeze, desired, desiredState, live, liveState } from '../core/builders.js';

/**
 * The oracle: the diff as it was before objects could be fed one by one (every live object and
 * every desired one in an AddressMap, the last of an address kept), compared through
 * diffResources's own result for the fields that do not depend on the algorithm.
 */
function allAtOnce(want: DesiredState, have: LiveState, syncSecrets: boolean): { creates: string[]; updates: string[]; deletes: string[]; unmanaged: string[] } {
  const liveByAddress = new AddressMap<LiveResource>();
  for (const r of have.resources) liveByAddress.set(r.address, r);
  const desiredByAddress = new AddressMap<DesiredResource>();
  for (const r of want.resources) desiredByAddress.set(r.address, r);
  const creates: string[] = [];
  const updates: string[] = [];
  for (const w of want.resources) {
    const h = liveByAddress.get(w.address);
    if (!h) creates.push(String(w.address));
    else if (Object.keys(w.attrs).some((k) => JSON.stringify(w.attrs[k]) !== JSON.stringify(h.attrs[k])) || (syncSecrets && Object.keys(w.writeOnly).length > 0)) {
      updates.push(`${w.address} ${JSON.stringify(h.attrs)}`);
    }
  }
  const deletes: string[] = [];
  const unmanaged: string[] = [];
  for (const c of want.collections) {
    for (const h of have.resources) {
      if (h.address.segments.length !== c.address.segments.length + 1 || !h.address.isWithin(c.address)) continue;
      if (h.resourceType !== c.memberType || desiredByAddress.has(h.address)) continue;
      (c.prune ? deletes : unmanaged).push(String(h.address));
    }
  }
  return { creates: creates.sort(), updates: updates.sort(), deletes: deletes.sort(), unmanaged: unmanaged.sort() };
}

function summary(result: DiffResult): ReturnType<typeof allAtOnce> {
  const of = (action: Change['action']) => result.changes.filter((c) => c.action === action);
  return {
    creates: of('create').map((c) => String(c.address)).sort(),
    updates: of('update').map((c) => `${c.address} ${JSON.stringify(c.before)}`).sort(),
    deletes: of('delete').map((c) => String(c.address)).sort(),
    unmanaged: result.unmanaged.map((u: Unmanaged) => String(u.address)).sort(),
  };
}

const NAMES = ['a', 'b', 'c', 'd', 'e', 'f'];
const TYPES = ['test.user', 'test.group'];
const at = (type: string, name: string) => new Address('east', ['auth', 'm', type === 'test.user' ? 'users' : 'groups', name]);
const object = fc.record({ type: fc.constantFrom(...TYPES), name: fc.constantFrom(...NAMES), value: fc.constantFrom('x', 'y') });

type Scenario = typeof scenario extends fc.Arbitrary<infer T> ? T : never;
const scenario = fc.record({
  wanted: fc.array(object, { maxLength: 8 }),
  had: fc.array(object, { maxLength: 8 }),
  prune: fc.boolean(),
  syncSecrets: fc.boolean(),
  // Which live objects the read tells as it goes, and in what order (the rest only in the end).
  fedOrder: fc.array(fc.nat({ max: 7 }), { maxLength: 12 }),
  indexFirst: fc.nat({ max: 9 }),
});

function build(s: Scenario) {
  const want = desiredState(
    s.wanted.map((o) => desired(at(o.type, o.name), { v: o.value }, { resourceType: o.type })),
    TYPES.map((type): ManagedCollection => ({ address: new Address('east', at(type, 'x').segments.slice(0, -1)), memberType: type, prune: s.prune, deleteLoses: undefined })),
  );
  const have = liveState(s.had.map((o) => live(at(o.type, o.name), { v: o.value }, o.type)));
  return deepFreeze({ want, have });
}

describe('LiveDiff: objects fed as they are read', () => {
  it('gives what comparing everything at once gives, whatever was fed, twice or not at all, in whatever order', () => {
    fc.assert(
      fc.property(scenario, (s) => {
        const { want, have } = build(s);
        const opts = { syncSecrets: s.syncSecrets };
        const fedEarly = new LiveDiff(want, opts);
        fedEarly.indexSome(s.indexFirst);
        for (const i of s.fedOrder) if (have.resources[i]) fedEarly.feed(have.resources[i]);
        const expected = allAtOnce(want, have, s.syncSecrets);
        expect(summary(fedEarly.finish(have))).toEqual(expected);
        expect(summary(diffResources(want, have, opts))).toEqual(expected);
      }),
      { numRuns: 500 },
    );
  });

  it('a fed object is compared when it is fed, a never-fed one at the end; both give the same change', () => {
    const want = desiredState([desired(at('test.user', 'a'), { v: 'new' }, { resourceType: 'test.user' }), desired(at('test.user', 'b'), { v: 'new' }, { resourceType: 'test.user' })]);
    const have = liveState([live(at('test.user', 'a'), { v: 'old' }, 'test.user'), live(at('test.user', 'b'), { v: 'old' }, 'test.user')]);
    const d = new LiveDiff(want, { syncSecrets: false });
    d.feed(have.resources[0]!);
    const { changes } = d.finish(have);
    expect(changes.map((c) => [String(c.address), c.action, c.changedFields])).toEqual([
      ['east:auth/m/users/a', 'update', ['v']],
      ['east:auth/m/users/b', 'update', ['v']],
    ]);
    expect(changes).toEqual(diffResources(want, have, { syncSecrets: false }).changes);
  });
});
