import { describe, expect, it } from 'vitest';
import { printable, printableAddress } from '../../src/core/text-escape.js';

describe('printable', () => {
  it('shows line breaks, controls, bidirectional and zero-width characters escaped, and leaves the rest as it is', () => {
    expect(printable('a\nb\tc\u001b[31m\u202e\u200b café')).toBe('a\\nb\\tc\\u001b[31m\\u202e\\u200b café');
    expect(printable('plain')).toBe('plain');
  });

  it("escapes every character Go's unicode.IsPrint refuses (the names' rule): soft hyphen, tag characters, no-break space, private use; a character beyond U+FFFF as JSON writes it", () => {
    expect(printable('a\u00adb\u180e\u206a\ufff9\u00a0\ue000')).toBe('a\\u00adb\\u180e\\u206a\\ufff9\\u00a0\\ue000');
    const tag = String.fromCodePoint(0xe0041);
    expect(printable(`x${tag}y`)).toBe('x\\udb40\\udc41y');
    expect(JSON.parse(`"${printable(`x${tag}y`)}"`)).toBe(`x${tag}y`);
    // Printable beyond U+FFFF (an emoji) and lone halves of a pair.
    expect(printable('ok 😀')).toBe('ok 😀');
    expect(printable('lone \ud800 half')).toBe('lone \\ud800 half');
  });
});

describe('printableAddress', () => {
  it('shows a space at either end of a segment as \\u0020, one inside a name as it is', () => {
    expect(printableAddress('default:auth/ldap/users/bob ')).toBe('default:auth/ldap/users/bob\\u0020');
    expect(printableAddress('default:auth/ldap/groups/  ops/x')).toBe('default:auth/ldap/groups/\\u0020\\u0020ops/x');
    expect(printableAddress('default:auth/ldap/users/mary ann')).toBe('default:auth/ldap/users/mary ann');
    expect(printableAddress('default:auth/ldap/users/eve\u202e')).toBe('default:auth/ldap/users/eve\\u202e');
  });
});
