import { describe, expect, it } from 'vitest';
import { filterTemplateError } from '../../src/server/ldap/filter-template.js';
import { addressAllowed, parseCidr } from '../../src/server/util/cidr.js';
import { formatGoDuration, parseDurationSeconds } from '../../src/server/util/durations.js';
import { normalisePolicies, parseCommaList, sortedUnique } from '../../src/server/util/lists.js';

describe('durations', () => {
  it.each([
    [90, 90],
    ['90', 90],
    ['90s', 90],
    ['1h30m', 5400],
    ['1.5h', 5400],
    ['2d', 172800],
    ['1500ms', 1],
    ['', 0],
    ['0', 0],
  ])('%j is %d seconds', (input, seconds) => {
    expect(parseDurationSeconds(input)).toBe(seconds);
  });
  it.each(['abc', '1x', '1h30', '.s', true])('refuses %j', (input) => {
    expect(() => parseDurationSeconds(input)).toThrow();
  });
  it('formats like Go', () => {
    expect([0, 45, 90, 3600, 2764800].map(formatGoDuration)).toEqual(['0s', '45s', '1m30s', '1h0m0s', '768h0m0s']);
  });
});

describe('lists', () => {
  it('takes arrays and comma strings, trimmed, without empties', () => {
    expect(parseCommaList(' a, b ,,c ')).toEqual(['a', 'b', 'c']);
    expect(parseCommaList(['x ', ' y'])).toEqual(['x', 'y']);
    expect(parseCommaList('')).toEqual([]);
  });
  it('normalises policies and names', () => {
    expect(normalisePolicies(['B', 'a', ' b ', ''])).toEqual(['a', 'b']);
    expect(sortedUnique(['B', 'a', 'B'], false)).toEqual(['B', 'a']);
  });
});

describe('CIDRs', () => {
  it('parses blocks and bare addresses', () => {
    expect(parseCidr('10.0.0.0/8')).toMatchObject({ prefix: 8, family: 'ipv4' });
    expect(parseCidr('10.1.2.3')).toMatchObject({ prefix: 32 });
    expect(parseCidr('fd00::/8')).toMatchObject({ family: 'ipv6' });
    expect(parseCidr('10.0.0.0/40')).toBeUndefined();
    expect(parseCidr('example.com')).toBeUndefined();
  });
  it('matches client addresses, IPv4-mapped ones included', () => {
    expect(addressAllowed([], '1.2.3.4')).toBe(true);
    expect(addressAllowed(['10.0.0.0/8'], '10.9.9.9')).toBe(true);
    expect(addressAllowed(['10.0.0.0/8'], '::ffff:10.9.9.9')).toBe(true);
    expect(addressAllowed(['10.0.0.0/8'], '127.0.0.1')).toBe(false);
    expect(addressAllowed(['::1'], '::1')).toBe(true);
  });
});

describe('filter templates', () => {
  it('accepts plain field actions with spaces and trim markers', () => {
    expect(filterTemplateError('(&({{.UserAttr}}={{ .Username }})(x={{- .Username -}}))')).toBeUndefined();
    expect(filterTemplateError('(member={{.UserDN}})')).toBeUndefined();
    expect(filterTemplateError('(cn=literal})')).toBeUndefined();
  });
  it("reports problems in Go's words", () => {
    expect(filterTemplateError('(cn={{.Username)')).toBe('template: queryTemplate:1: unclosed action');
    expect(filterTemplateError('(cn={{.Nope}})')).toBeUndefined(); // #14: only parsed
    expect(filterTemplateError('(cn=\n{{}})')).toBe('template: queryTemplate:2: missing value for command');
  });
});
