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

describe('segmentProblem: what the service\'s printable-path check refuses (values/printable.ts)', () => {
  it('refuses C1 controls, format characters and separators other than " ", naming the character', () => {
    expect(segmentProblem('c1\u009b31m')).toMatch(/^must not contain U\+009B /);
    expect(segmentProblem('bidi\u202eevil')).toMatch(/^must not contain U\+202E /);
    expect(segmentProblem('a\u00a0b')).toMatch(/^must not contain U\+00A0 /);
    expect(segmentProblem('zero\u200bwidth')).toMatch(/^must not contain U\+200B /);
    expect(segmentProblem('private\ue000use')).toMatch(/^must not contain U\+E000 /);
  });

  it('takes printable text beyond ASCII, and " "', () => {
    for (const name of ['café', 'Ärger', '日本', 'two words', 'emoji\u{1F600}']) expect(segmentProblem(name)).toBeUndefined();
  });
});
