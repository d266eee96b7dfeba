import { describe, expect, it } from 'vitest';
import { Escapes } from '../../src/core/decoded-views.js';
import { aloneIn, replaceAlone, standingAlone } from '../../src/core/standing-alone.js';

const pattern = (...secrets: string[]): RegExp => standingAlone(secrets.join('|'));

describe('Escapes: read as the decoders read them', () => {
  it('left to right: an escaped backslash, then a letter that is no escape', () => {
    const text = String.raw`a\\n\n`;
    const escapes = new Escapes(text);
    expect([1, 2, 3, 4, 5, 6].map((i) => escapes.at(i))).toEqual(['outside', 'inside', 'end', 'outside', 'inside', 'end']);
  });

  it('only what a decoder undoes: an unknown entity name or a code point out of range is no escape', () => {
    expect(new Escapes('&foo;').at(1)).toBe('outside');
    expect(new Escapes(String.raw`\u{110000}`).at(2)).toBe('outside');
    expect(new Escapes('&auml;').at(1)).toBe('inside');
    expect(new Escapes(String.raw`\u{10FFFF}x`).at(10)).toBe('end');
    expect(new Escapes('&#x10FFFF;x').at(10)).toBe('end');
  });

  it('lines are read on their own (an escape never holds a line break)', () => {
    const text = `${'x'.repeat(50)}\n%3Dy`;
    expect(new Escapes(text).at(text.length - 1)).toBe('end');
    expect(new Escapes(text).at(text.length - 2)).toBe('inside');
  });
});

describe('short secrets standing alone', () => {
  it('after an escape, never inside one', () => {
    expect(aloneIn(String.raw`a\n(x)`, pattern('n'))).toBe(false);
    expect(aloneIn(String.raw`a\nn`, pattern('n'))).toBe(true);
    expect(aloneIn(String.raw`C:\\n`, pattern('n'))).toBe(true);
    expect(aloneIn('%3D(', pattern('3D'))).toBe(false);
    expect(aloneIn('&foo;', pattern('foo'))).toBe(true);
  });

  it('the next shorter secret is tried where a longer one is touched at its end', () => {
    expect(replaceAlone('ab-cd', pattern('ab-c', 'ab'), '(x)')).toBe('(x)-cd');
  });

  it('replaced until none stands alone, however the replacements free their neighbours', () => {
    expect(replaceAlone('-1-1', pattern('-1'), '(sensitive)')).toBe('(sensitive)(sensitive)');
    expect(replaceAlone('1-1-', pattern('1-'), '(sensitive)')).toBe('(sensitive)(sensitive)');
    expect(replaceAlone('21-1-', pattern('1-'), '(sensitive)')).toBe('21-(sensitive)');
  });
});
