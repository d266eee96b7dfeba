import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { formatCount } from '../../src/core/count.js';

describe('formatCount', () => {
  test('writes what toLocaleString("en-US") writes, for every safe integer', () => {
    for (const n of [0, 7, 999, 1000, 11004, 100000, 1234567, -1000, -999999]) expect(formatCount(n)).toBe(n.toLocaleString('en-US'));
    fc.assert(fc.property(fc.integer({ min: -Number.MAX_SAFE_INTEGER, max: Number.MAX_SAFE_INTEGER }), (n) => formatCount(n) === n.toLocaleString('en-US')));
  });
});
