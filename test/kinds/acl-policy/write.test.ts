import { describe, expect, it } from 'vitest';
import { sentForm } from '../../../src/kinds/acl-policy/write.js';
import { decodesAsGoBase64 } from '../../../src/values/index.js';

// vault/logical_system.go handlePoliciesSet: `if polBytes, err := base64.StdEncoding.DecodeString(policy.Raw); err == nil { policy.Raw = string(polBytes) }`.
// Go's StdEncoding skips \r and \n, wants padding, and is not strict about the left-over bits.
describe('a policy text the service would take for base64', () => {
  it('is what Go decodes: padded standard base64, line breaks skipped', () => {
    expect(decodesAsGoBase64('//ab')).toBe(true);
    expect(decodesAsGoBase64('//a=')).toBe(true);
    expect(decodesAsGoBase64('//ab\n//ab\r\n')).toBe(true);
    expect(decodesAsGoBase64('\n')).toBe(true);
    expect(decodesAsGoBase64('//abc')).toBe(false);
    expect(decodesAsGoBase64('# ab')).toBe(false);
    expect(decodesAsGoBase64('path "a" { capabilities = ["read"] }')).toBe(false);
    expect(decodesAsGoBase64('a===')).toBe(false);
  });

  it('is sent encoded, so the service stores the text itself; any other text is sent as written', () => {
    expect(Buffer.from(sentForm('//ab'), 'base64').toString('utf8')).toBe('//ab');
    expect(sentForm('path "a" { capabilities = ["read"] }\n')).toBe('path "a" { capabilities = ["read"] }\n');
  });
});
