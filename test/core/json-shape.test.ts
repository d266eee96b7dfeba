import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { checkedText, listOf, mapOf, oneOf, orNull, shapeProblems, strictRecord } from '../../src/core/json-shape.js';

describe('json shapes', () => {
  const SHAPE = strictRecord(
    {
      kind: oneOf('a', 'b'),
      version: oneOf(1),
      items: listOf(strictRecord({ name: 'text' }, { note: 'text' })),
      before: orNull('object'),
      map: mapOf('text'),
      id: checkedText('an id', (t) => (/^[a-z]+$/.test(t) ? undefined : 'is a string of other characters')),
    },
    { extra: 'bool' },
  );
  const GOOD = { kind: 'a', version: 1, items: [{ name: 'x' }, { name: 'y', note: '' }], before: null, map: { k: 'v' }, id: 'abc', unknown: [1] };

  it('#13.10: a value of the shape has no problems; unknown fields are tolerated, optional ones may be absent', () => {
    expect(shapeProblems(GOOD, SHAPE)).toEqual([]);
    expect(shapeProblems({ ...GOOD, before: { any: [1, { thing: null }] }, extra: true }, SHAPE)).toEqual([]);
  });

  it('#13.10: each combinator names its field and what it found', () => {
    const bad = { kind: 'c', version: 2, items: [{ note: 1 }, null], before: [], map: { '\u0007"k': 1 }, id: 'A1', extra: 'yes' };
    expect(shapeProblems(bad, SHAPE, '(the plan)')).toEqual([
      { field: 'kind', problem: 'is another string, expected one of "a", "b"' },
      { field: 'version', problem: 'is a number, expected 1' },
      { field: 'items[0].name', problem: 'is missing' },
      { field: 'items[0].note', problem: 'is a number, expected a string' },
      { field: 'items[1]', problem: 'is null, expected an object' },
      { field: 'before', problem: 'is a list, expected an object' },
      { field: 'map.\\u0007\\"k', problem: 'is a number, expected a string' },
      { field: 'id', problem: 'is a string of other characters, expected an id' },
      { field: 'extra', problem: 'is a string, expected true or false' },
    ]);
    expect(shapeProblems(null, SHAPE, '(the plan)')).toEqual([{ field: '(the plan)', problem: 'is null, expected an object' }]);
  });

  it('#13.10: any JSON value is checked without throwing, and every problem names a printable field', () => {
    fc.assert(
      fc.property(fc.jsonValue(), (value) => {
        for (const p of shapeProblems(value, SHAPE)) {
          // eslint-disable-next-line no-control-regex
          expect(p.field).not.toMatch(/[\u0000-\u001f\u007f]/);
          expect(p.problem).toMatch(/^(is |has )/);
        }
      }),
      { numRuns: 500, seed: 13 },
    );
  });
});
