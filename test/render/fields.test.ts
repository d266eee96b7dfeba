import { describe, expect, it } from 'vitest';
import { formatValue } from '../../src/render/fields.js';

describe('formatValue', () => {
  it('escapes what would reorder or hide text on a terminal, as JSON that reads back the same value', () => {
    // U+202E reverses what follows ("Trojan Source"), U+200B and U+2066 are invisible, U+0085 a C1 control.
    const value = 'cn=svc\u202e,nimda=nc\u200b\u2066\u0085';
    const shown = formatValue(value);
    expect(shown).toBe('"cn=svc\\u202e,nimda=nc\\u200b\\u2066\\u0085"');
    expect(JSON.parse(shown)).toBe(value);
    expect(formatValue(['a\u202eb', { k: 'x\u200fy' }])).toBe('["a\\u202eb",{"k":"x\\u200fy"}]');
    expect(formatValue('plain café')).toBe('"plain café"');
    expect(formatValue(undefined)).toBe('(none)');
  });
});
