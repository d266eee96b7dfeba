import { describe, expect, it } from 'vitest';
import { printable, printableAddress } from '../../src/core/text-escape.js';

describe('printable', () => {
  it('shows line breaks, controls, bidirectional and zero-width characters escaped, and leaves the rest as it is', () => {
    expect(printable('a\nb\tc\u001b[31m\u202e\u200b café')).toBe('a\\nb\\tc\\u001b[31m\\u202e\\u200b café');
    expect(printable('plain')).toBe('plain');
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
