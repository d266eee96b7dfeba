import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { ListMemo } from '../../../src/kinds/ldap-auth/list-memo.js';
import { normaliseGroupList, normalisePolicies } from '../../../src/kinds/ldap-auth/values.js';

// Texts that look alike once joined or split: commas, white space, NUL, case, empty items.
const text = fc.constantFrom('a', 'A', 'b', 'a,b', ' a', 'a ', '', ',', 'a\u0000b', 'root', '\u00a0b');
const value = fc.oneof(
  text,
  fc.array(text, { maxLength: 4 }),
  fc.array(fc.oneof(text, fc.integer({ min: -1, max: 1 }), fc.constant(null), fc.constant(-0), fc.boolean()), { maxLength: 3 }),
  fc.array(fc.oneof(text, fc.constant(['a']), fc.constant({ a: 1 })), { maxLength: 3 }),
  fc.constantFrom(undefined, null, 0, -0, 1, true, false, { a: 'b' }),
);

describe('ListMemo', () => {
  test('gives what the normaliser gives, for any run of values in any order', () => {
    const normalisers = [normalisePolicies, (v: unknown) => normaliseGroupList(v, false), (v: unknown) => normaliseGroupList(v, true)];
    fc.assert(
      fc.property(fc.array(value, { maxLength: 30 }), (values) => {
        for (const normalise of normalisers) {
          const memo = new ListMemo(normalise);
          for (const v of values) expect(memo.of(v)).toEqual(normalise(v));
        }
      }),
      { numRuns: 300 },
    );
  });

  test('one frozen array per distinct list: equal items share it, different ones do not', () => {
    const memo = new ListMemo(normalisePolicies);
    const shared = memo.of(['Dev', 'ops']);
    expect(memo.of(['Dev', 'ops'])).toBe(shared);
    expect(Object.isFrozen(shared)).toBe(true);
    expect(() => (shared as string[]).push('x')).toThrow(TypeError);
    // The same normalised list from other items is another entry (the memo keys what was written).
    expect(memo.of(['dev', 'ops'])).toEqual(shared);
    expect(memo.of('Dev,ops')).toEqual(shared);
    // Items that would join to the same text are not confused.
    expect(memo.of(['a\u0000b'])).toEqual(['a\u0000b']);
    expect(memo.of(['a', '\u0000b'])).toEqual(['\u0000b', 'a']);
    expect(memo.of(['a'])).toEqual(['a']);
    expect(memo.of([])).toEqual([]);
    expect(memo.of(undefined)).toBe(memo.of(undefined));
  });
});
