import { describe, expect, test } from 'vitest';
import { addressAllowed, durationSeconds, formatGoDuration, readBool, readCidr, readCommaList, readDuration, readInteger, valueOf } from '../../src/values/index.js';

// Each form as the service reads it; the sources are named in src/values/ (parseutil.go of
// hashicorp/go-secure-stdlib, sdk/framework/field_data.go of hashicorp/vault, Go's time and
// strconv packages).

describe('#15.2: durations (parseutil.ParseDurationSecond + TypeDurationSecond)', () => {
  test.each([
    [0, 0],
    [3600, 3600],
    ['3600', 3600],
    ['+90', 90],
    ['', 0],
    ['0', 0],
    ['-0', 0],
    ['90s', 90],
    ['1h30m', 5400],
    ['1.5h', 5400],
    ['.5h', 1800],
    ['5.m', 300],
    ['2m0.5s30ms470ms', 121],
    ['1500ms', 1],
    ['-500ms', 0],
    ['7d', 604800],
    ['+2d', 172800],
    ['1µs', 0],
    ['8760h', 31_536_000],
  ] as const)('%j is %d seconds', (input, seconds) => expect(durationSeconds(input)).toBe(seconds));

  test.each(['1d12h', ' 1h', '1h ', '1.5d', 'd', '1x', 'h', '.s', '.', '-1s', '-1', '-1d', '1h30', '1e3', 'abc', '9223372037s', '106752d'])(
    '%j is refused',
    (input) => expect(readDuration(input).kind).toBe('refused'),
  );

  // Each answer as the real server gives it (OpenBao 2.6.2, go-secure-stdlib parseutil 0.1.x and Go's time).
  test.each([
    ['9223372036', 9223372036],
    ['106751d', 9223286400],
    ['2562047h', 9223369200],
    ['9223372036854775807ns', 9223372036],
    ['9223372037', 'multiplication of durations resulted in overflow, one operand may be too large'],
    ['-9223372037', 'multiplication of durations resulted in overflow, one operand may be too large'],
    ['18446744074', 'multiplication of durations resulted in overflow, one operand may be too large'],
    ['106752d', 'multiplication of durations resulted in overflow, one operand may be too large'],
    ['-106752d', 'multiplication of durations resulted in overflow, one operand may be too large'],
    ['99999999999999999999d', 'strconv.ParseInt: parsing "99999999999999999999": value out of range'],
    ['2562048h', 'time: invalid duration "2562048h"'],
    ['9223372036854775808ns', 'time: invalid duration "9223372036854775808ns"'],
    ['99999999999999999999', 'time: invalid duration "99999999999999999999"'],
    ['99999999999999999999s', 'time: invalid duration "99999999999999999999s"'],
    ['-9223372036', "cannot provide negative value '-9223372036'"],
    ['-9223372036854775808ns', "cannot provide negative value '-9223372036'"],
  ] as const)('at the edge of int64 nanoseconds, %j: %j', (input, expected) => {
    expect(readDuration(input)).toEqual(
      typeof expected === 'number' ? { kind: 'value', value: { seconds: expected, truncated: expect.any(Boolean) } } : { kind: 'refused', reason: expected },
    );
  });

  test('a JSON number is read as its text: a fraction or an exponent is refused, as json.Number is', () => {
    expect(readDuration(1.5).kind).toBe('refused');
    expect(readDuration(1e21).kind).toBe('refused');
    expect(readDuration(-5)).toEqual({ kind: 'refused', reason: "cannot provide negative value '-5'" });
    expect(readDuration(null).kind).toBe('refused');
    expect(readDuration(true).kind).toBe('refused');
  });

  test('says when the service would drop a sub-second remainder', () => {
    expect(readDuration('1500ms')).toEqual({ kind: 'value', value: { seconds: 1, truncated: true } });
    expect(readDuration('1h')).toEqual({ kind: 'value', value: { seconds: 3600, truncated: false } });
  });

  test("formats like Go's Duration.String()", () => {
    expect([0, 45, 90, 3600, 2764800].map(formatGoDuration)).toEqual(['0s', '45s', '1m30s', '1h0m0s', '768h0m0s']);
  });
});

describe('#15.2: booleans (strconv.ParseBool through mapstructure.WeakDecode)', () => {
  test('the texts of strconv.ParseBool, "" as false, JSON 0 and 1', () => {
    const t = ['1', 't', 'T', 'TRUE', 'true', 'True', true, 1];
    const f = ['0', 'f', 'F', 'FALSE', 'false', 'False', '', false, 0];
    expect(t.map((v) => valueOf(readBool(v)))).toEqual(t.map(() => true));
    expect(f.map((v) => valueOf(readBool(v)))).toEqual(f.map(() => false));
  });
  test.each(['yes', 'on', 'tRUE', ' true', 2, -1, null, [], {}])('%j is refused', (v) => expect(readBool(v).kind).toBe('refused'));
});

describe('#15.2: comma lists (parseutil.ParseCommaStringSlice)', () => {
  test('texts split at commas, arrays item by item, every item trimmed, nothing else', () => {
    expect(valueOf(readCommaList(''))).toEqual([]);
    expect(valueOf(readCommaList(' a, B ,,a '))).toEqual(['a', 'B', '', 'a']);
    expect(valueOf(readCommaList(['a,b', ' c ']))).toEqual(['a,b', 'c']);
    expect(valueOf(readCommaList([1, true, null]))).toEqual(['1', '1', '']);
    expect(valueOf(readCommaList(5))).toEqual(['5']);
    expect(valueOf(readCommaList(null))).toEqual([]);
    // Go's strings.TrimSpace: U+0085 is space, U+FEFF is not.
    expect(valueOf(readCommaList('\u0085a\u3000,\ufeffb'))).toEqual(['a', '\ufeffb']);
  });
  test('objects are refused', () => {
    expect(readCommaList({ a: 1 }).kind).toBe('refused');
    expect(readCommaList([{ a: 1 }]).kind).toBe('refused');
    expect(readCommaList([['a']]).kind).toBe('refused');
  });
});

describe('#15.2: integers and counts (strconv.ParseInt base 0 through mapstructure.WeakDecode)', () => {
  test.each([
    [7, 7],
    ['12', 12],
    ['', 0],
    ['+3', 3],
    ['-2', -2],
    ['0x1f', 31],
    ['0o17', 15],
    ['017', 15],
    ['0b101', 5],
    ['1_000', 1000],
    [true, 1],
  ] as const)('%j is %d', (input, n) => expect(valueOf(readInteger(input))).toBe(n));
  test.each(['1.5', '1e3', ' 1', '1 ', '08', '_1', '1__0', 'abc', 1.5, null])('%j is refused', (v) => expect(readInteger(v).kind).toBe('refused'));
});

describe('#15.2: CIDR blocks', () => {
  test('blocks and bare addresses', () => {
    expect(valueOf(readCidr('10.0.0.0/8'))).toMatchObject({ prefix: 8, family: 'ipv4' });
    expect(valueOf(readCidr('10.1.2.3'))).toMatchObject({ prefix: 32 });
    expect(valueOf(readCidr('fd00::/8'))).toMatchObject({ family: 'ipv6' });
    for (const ok of ['0.0.0.0/0', '::1', '2001:db8::/32', 'fe80::/128']) expect(readCidr(ok).kind).toBe('value');
  });
  test('refusals, with the reason', () => {
    expect(readCidr('10.0.0.0/33')).toEqual({ kind: 'refused', reason: 'has an invalid prefix length (0-32)' });
    expect(readCidr('2001:db8::/129')).toEqual({ kind: 'refused', reason: 'has an invalid prefix length (0-128)' });
    expect(readCidr('10.0.0/8')).toEqual({ kind: 'refused', reason: 'is not an IPv4 or IPv6 address or CIDR block' });
    expect(readCidr('10.0.0.0/8/1')).toEqual({ kind: 'refused', reason: 'is not a CIDR block' });
    expect(readCidr('10.0.0.0/')).toEqual({ kind: 'refused', reason: 'has an invalid prefix length (0-32)' });
    expect(readCidr('example.com').kind).toBe('refused');
  });
  test('matches client addresses, IPv4-mapped ones included', () => {
    expect(addressAllowed([], '1.2.3.4')).toBe(true);
    expect(addressAllowed(['10.0.0.0/8'], '10.9.9.9')).toBe(true);
    expect(addressAllowed(['10.0.0.0/8'], '::ffff:10.9.9.9')).toBe(true);
    expect(addressAllowed(['10.0.0.0/8'], '127.0.0.1')).toBe(false);
    expect(addressAllowed(['::1'], '::1')).toBe(true);
  });
});
