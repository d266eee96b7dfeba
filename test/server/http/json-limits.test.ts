import { describe, expect, it } from 'vitest';
import { jsonLimitsError } from '../../../src/server/http/json-limits.js';

/** hashicorp/vault sdk/helper/jsonutil/json.go VerifyMaxDepthStreaming (commit b19e74c), as serve checks a body (http/json-limits.ts). */
const check = (text: string | Uint8Array): string | undefined => jsonLimitsError(typeof text === 'string' ? Buffer.from(text, 'utf8') : text);

describe('the JSON limits check of a request body', () => {
  it('passes what the decoder takes, white space after the value included', () => {
    expect(check('{"a":[1,2.5e3,-0.5,true,null,"x\\u00e9"]} \n\t')).toBeUndefined();
    expect(check('{"a":1e-400}')).toBeUndefined(); // ParseFloat: underflow is 0, not an error
  });
  it('does not check a body that starts with neither { nor [', () => {
    expect(check('policies=default')).toBeUndefined();
    expect(check('  "x" trailing')).toBeUndefined();
    expect(check('')).toBeUndefined();
  });
  it('refuses anything after the top-level value', () => {
    expect(check('{"policies":"sp"} trailing')).toBe("invalid character 't' after top-level value");
    expect(check('{} {}')).toBe("invalid character '{' after top-level value");
  });
  it('refuses a number ParseFloat refuses, out of range included, and a leading zero', () => {
    expect(check('{"policies":1e400}')).toBe("malformed JSON, invalid number syntax for '1e400'");
    expect(check('{"a":1-2}')).toBe("malformed JSON, invalid number syntax for '1-2'");
    expect(check('{"a":012}')).toBe("invalid character '1' after top-level value");
  });
  it('refuses a key repeated in one object, escapes resolved', () => {
    expect(check('{"a":1,"\\u0061":2}')).toBe("duplicate key 'a' in object");
    expect(check('{"a":{"a":1}}')).toBeUndefined();
  });
  it('skips a byte order mark and counts depth to 500', () => {
    expect(check(Uint8Array.from([0xef, 0xbb, 0xbf, 0x7b, 0x7d]))).toBeUndefined();
    expect(check('['.repeat(500) + ']'.repeat(500))).toBeUndefined();
    expect(check('['.repeat(501) + ']'.repeat(501))).toBe('JSON input exceeds allowed nesting depth');
  });
  it('words structural errors as the check does', () => {
    expect(check('{"type": "ldap"')).toBe('malformed JSON, unclosed containers');
    expect(check('{"a":1,}')).toBe("invalid character '}' after object key-value pair");
    expect(check('[1,]')).toBe("invalid character ']' after array element");
    expect(check('{"a":]')).toBe("invalid character '}' after object key");
    expect(check('{"a":"\\x"}')).toBe("invalid character 'x' in string escape code");
    expect(check('{"a":"\\ud800"}')).toBe('malformed JSON, unterminated surrogate pair in string');
    expect(check('{"a":"x')).toBe('malformed JSON, unclosed string');
  });
});
