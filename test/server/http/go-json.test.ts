import { describe, expect, it } from 'vitest';
import { goDecodeExtent } from '../../../src/server/http/go-json.js';

/**
 * #22: request bodies read as Go's json.Decoder reads one value (hashicorp/vault http/handler.go
 * parseJSONRequest): its syntax errors word for word (golang/go src/encoding/json/scanner.go),
 * io.ErrUnexpectedEOF for a value cut short, and nothing looked at after the first value.
 */
function decode(text: string | Uint8Array) {
  return goDecodeExtent(typeof text === 'string' ? Buffer.from(text, 'utf8') : text);
}

function errorOf(text: string | Uint8Array): string | undefined {
  const d = decode(text);
  return d.kind === 'error' ? d.message : undefined;
}

describe('Go JSON decoding of a request body', () => {
  it('finds the first value and leaves what follows', () => {
    const body = ' {"a": [1, 2.5e-3, true, null, "x\\u00e9"]} trailing';
    expect(decode(body)).toEqual({ kind: 'value', first: 1, end: body.indexOf(' trailing') });
    expect(decode('12x')).toEqual({ kind: 'value', first: 0, end: 2 });
    expect(decode('"s"')).toEqual({ kind: 'value', first: 0, end: 3 });
    expect(decode('-0.5')).toEqual({ kind: 'value', first: 0, end: 4 });
  });

  it('reads an empty or white-space body as no value (io.EOF)', () => {
    expect(decode('')).toEqual({ kind: 'empty' });
    expect(decode(' \n\t\r')).toEqual({ kind: 'empty' });
  });

  it.each([
    ['policies=default', "invalid character 'p' looking for beginning of value"],
    ['{a:1}', "invalid character 'a' looking for beginning of object key string"],
    ['{"a" 1}', "invalid character '1' after object key"],
    ['{"a":1 "b":2}', `invalid character '"' after object key:value pair`],
    ['[1 2]', "invalid character '2' after array element"],
    ['"a\nb"', "invalid character '\\n' in string literal"],
    ['"\\x"', "invalid character 'x' in string escape code"],
    ['"\\u12g4"', "invalid character 'g' in \\u hexadecimal character escape"],
    ['-x', "invalid character 'x' in numeric literal"],
    ['1.x', "invalid character 'x' after decimal point in numeric literal"],
    ['1e+x', "invalid character 'x' in exponent of numeric literal"],
    ['tru ', "invalid character ' ' in literal true (expecting 'e')"],
    ['nul', 'unexpected EOF'],
    ['{"type": "ldap"', 'unexpected EOF'],
    ['{', 'unexpected EOF'],
    ["'x'", "invalid character '\\'' looking for beginning of value"],
    ['\u0001', "invalid character '\\x01' looking for beginning of value"],
    ['\\', "invalid character '\\\\' looking for beginning of value"],
  ])('%j is refused: %s', (text, message) => {
    expect(errorOf(text)).toBe(message);
  });

  it('quotes a byte that is not ASCII as Go does, one byte read as Latin-1', () => {
    expect(errorOf(Buffer.from('é', 'utf8'))).toBe("invalid character 'Ã' looking for beginning of value");
    expect(errorOf(Uint8Array.of(0xa0))).toBe("invalid character '\\u00a0' looking for beginning of value");
  });

  it('never quotes more than one byte of the body', () => {
    const secret = 'hunter2-canary';
    expect(errorOf(`{"bindpass": ${secret}}`)).toBe("invalid character 'h' looking for beginning of value");
  });
});
