import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { encodeSegment, isPlainSegment, segmentProblem } from '../../src/core/path-segment.js';

describe('isPlainSegment: the request path\'s shortcut', () => {
  it('a plain name is addressable and its own encoding, for any text', () => {
    const names = fc.oneof(fc.string(), fc.stringMatching(/^[A-Za-z0-9_.~-]{0,8}$/), fc.constantFrom('.', '..', '...', '', 'a/b', 'ü', '%41'));
    fc.assert(
      fc.property(names, (name) => {
        if (!isPlainSegment(name)) return;
        expect(segmentProblem(name)).toBeUndefined();
        expect(encodeSegment(name)).toBe(name);
      }),
      { numRuns: 2000 },
    );
  });

  it('the dot names and anything to encode are not plain', () => {
    for (const name of ['.', '..', '', 'a/b', 'a b', 'ü', '%41', 'a\u0000']) expect(isPlainSegment(name)).toBe(false);
    for (const name of ['...', 'u1', 'A-b_c.d~e']) expect(isPlainSegment(name)).toBe(true);
  });
});
