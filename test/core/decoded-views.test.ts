import { describe, expect, it } from 'vitest';
import { decodedViews } from '../../src/core/decoded-views.js';

describe('decodedViews: backslash escapes', () => {
  it('a code point past U+FFFF as Python and Go write it (\\U0001f600), and \\u and \\x upper-cased', () => {
    expect(decodedViews(String.raw`a\U0001f600b`)).toContain('a😀b');
    expect(decodedViews(String.raw`\U00E4\XE4`)).toContain('ää');
    // Past U+10FFFF it is \U and four digits (an upper-cased \u), then text.
    expect(decodedViews(String.raw`\U00110000`)).toContain('\u00110000');
  });

  it('a run of byte escapes is also read as UTF-8 (Python bytes, Ruby, C), an escaped backslash before it kept', () => {
    expect(decodedViews(String.raw`p\xc3\xa4ss`)).toEqual(expect.arrayContaining(['pÃ¤ss', 'päss']));
    expect(decodedViews(String.raw`p\303\244ss \xF0\x9F\x98\x80`)).toContain('päss 😀');
    expect(decodedViews(String.raw`\\xc3\xa4`)).not.toContain('\\ä');
  });
});

describe('decodedViews: HTML entities', () => {
  it('a named entity in any case (a server that upper-cased an escaped body)', () => {
    expect(decodedViews('A&LT;B&GT;C&AMP;D &AUML;')).toContain('A<B>C&D ä');
    expect(decodedViews('&Auml;')).toContain('Ä');
  });
});
