import { describe, expect, it } from 'vitest';
import { sidText } from '../../src/adapters/ldap/login-directory.js';

// sdk/helper/ldaputil/client.go sidBytesToString: revision, sub-authority count, a 48-bit
// big-endian authority, then little-endian 32-bit sub-authorities.
describe('tokenGroups SIDs as ldaputil reads them', () => {
  it('S-1-5-21-...-513 from its bytes; too short is no SID', () => {
    const bytes = Buffer.from([1, 5, 0, 0, 0, 0, 0, 5, 21, 0, 0, 0, 1, 0, 0, 0, 2, 0, 0, 0, 3, 0, 0, 0, 0x01, 0x02, 0, 0]);
    expect(sidText(bytes)).toBe('S-1-5-21-1-2-3-513');
    expect(sidText(bytes.subarray(0, 12))).toBeUndefined();
  });
});
