import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { MAYBE_OVERFLOW, parseBody } from '../../src/client/response.js';

// Numbers JSON.parse reads as ±Infinity, as a server might write them.
const OVERFLOWING = ['1e400', '-1E+999', '2.5e0309', `1${'0'.repeat(309)}`, `-9${'9'.repeat(320)}.5`];
const MARK_VALUE = '\u0000overflow\u0000';
const MARK = JSON.stringify(MARK_VALUE);

/** JSON text of `value` with white space of `indent`, each marked leaf replaced by an overflowing literal. */
function textWith(value: unknown, indent: string, literals: string[]): string {
  let i = 0;
  return JSON.stringify(value, null, indent).replaceAll(MARK, () => literals[i++ % literals.length]!);
}

const leaf = fc.oneof(fc.string(), fc.double({ noNaN: true, noDefaultInfinity: true }), fc.boolean(), fc.constant(null), fc.constant('3e456a1e999f'));
const tree = (withMark: boolean) =>
  fc.letrec((tie) => ({
    node: fc.oneof({ depthSize: 'small' }, withMark ? fc.oneof(leaf, fc.constant(MARK_VALUE)) : leaf, tie('arr'), tie('obj')),
    arr: fc.array(tie('node'), { maxLength: 4 }),
    obj: fc.dictionary(fc.string({ maxLength: 6 }), tie('node'), { maxKeys: 4 }),
  })).obj;

describe('parseBody: numbers that overflow (response.ts MAYBE_OVERFLOW)', () => {
  it('the gate passes every text holding an overflowing number, whatever the white space around it', () => {
    fc.assert(
      fc.property(tree(true), fc.constantFrom('', ' ', '\t', '\n  ', '\r\n'), fc.subarray(OVERFLOWING, { minLength: 1 }), (value, indent, literals) => {
        const text = textWith(value, indent, literals);
        const overflows = text !== JSON.stringify(value, null, indent);
        const parsed = parseBody(text);
        if (overflows) {
          expect(MAYBE_OVERFLOW.test(text)).toBe(true);
          expect(parsed).toMatchObject({ problem: expect.stringContaining('is not a finite number') });
        } else {
          expect(parsed).toEqual({ body: JSON.parse(text) });
        }
      }),
      { numRuns: 400 },
    );
    // The property above must have met texts with overflowing numbers.
    expect(fc.sample(tree(true), 200).some((v) => JSON.stringify(v).includes(MARK))).toBe(true);
  });

  it('hex in a string (a request_id) is no number: the walk is skipped', () => {
    const text = '{"request_id":"5d3e456b-1e40-e999-0000-3e123c","data":{"policies":["a"]},"lease_duration":0}';
    expect(MAYBE_OVERFLOW.test(text)).toBe(false);
    expect(parseBody(text)).toEqual({ body: JSON.parse(text) });
  });

  it('an overflowing number right after [ or , or at the very start is still found', () => {
    expect(parseBody('{"n":[1e400]}')).toEqual({ problem: '"n[0]" is not a finite number' });
    expect(parseBody('{"n":[1,\n -1e400]}')).toEqual({ problem: '"n[1]" is not a finite number' });
    expect(MAYBE_OVERFLOW.test('1e400')).toBe(true);
  });
});
