import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { escapeLiteral, unescapeLiteral } from '../../src/load/literal-text.js';
import { classifyString } from '../../src/load/references.js';

describe('literal ${ in manifests', () => {
  test.each([
    ['${env:X}', '$${env:X}'],
    ['$${x}', '$$${x}'],
    ['a ${ b ${', 'a $${ b $${'],
    ['no dollar', 'no dollar'],
    ['$$ {}', '$$ {}'],
  ])('#13.5: %s is written %s', (literal, written) => {
    expect(escapeLiteral(literal)).toBe(written);
    expect(unescapeLiteral(written)).toBe(literal);
  });

  test('#13.5: any text escaped reads back as the same literal, never as a reference', () => {
    const text = fc.stringMatching(/^[${}a-z:]{0,24}$/);
    fc.assert(
      fc.property(text, (literal) => {
        expect(classifyString(escapeLiteral(literal))).toEqual({ form: 'literal', text: literal });
      }),
      { numRuns: 500 },
    );
  });
});
