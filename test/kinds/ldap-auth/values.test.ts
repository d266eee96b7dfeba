import { describe, expect, test } from 'vitest';
import { parseDuration } from '../../../src/kinds/ldap-auth/normalise.js';
import {
  listItems,
  normaliseCidrs,
  normaliseGroupList,
  normalisePolicies,
  parseBool,
  parseCount,
  parseDurationDetailed,
} from '../../../src/kinds/ldap-auth/values.js';
import { cidrProblem, urlListProblems } from '../../../src/kinds/ldap-auth/syntax.js';
import { templateProblems } from '../../../src/kinds/ldap-auth/template.js';

describe('parseDuration', () => {
  test.each([
    [0, 0],
    [3600, 3600],
    ['3600', 3600],
    ['90s', 90],
    ['1h', 3600],
    ['1h30m', 5400],
    ['1.5h', 5400],
    ['1000ms', 1],
    ['2m0.5s30ms470ms', 121],
    ['7d', 604800],
    ['8760h', 31_536_000],
  ] as const)('%s → %s', (input, seconds) => expect(parseDuration(input)).toBe(seconds));

  test.each(['', 'h', '1x', '-1s', '1h ', ' 1h', '1.5', '1d2h', 'abc', '.s'])('%j is not a duration', (input) => {
    expect(parseDuration(input)).toBeUndefined();
    expect(parseDurationDetailed(input)).toEqual({ problem: 'syntax' });
  });

  test.each([-1, 1.5, Number.NaN])('%s is not a duration', (n) => expect(parseDuration(n)).toBeUndefined());

  test.each(['250ms', '1500ms', '0.5s', '1s1ns'])('%s has a sub-second remainder', (input) => {
    expect(parseDuration(input)).toBeUndefined();
    expect(parseDurationDetailed(input)).toEqual({ problem: 'fraction' });
  });
});

describe('scalars', () => {
  test('parseBool takes YAML booleans and their texts only', () => {
    expect([true, false, 'true', 'false'].map(parseBool)).toEqual([true, false, true, false]);
    expect(['yes', 'True', 1, null].map(parseBool)).toEqual([undefined, undefined, undefined, undefined]);
  });
  test('parseCount takes whole numbers ≥ 0 and their digits', () => {
    expect([0, 7, '12'].map(parseCount)).toEqual([0, 7, 12]);
    expect([-1, 1.5, '1e3', '-2', ''].map(parseCount)).toEqual([undefined, undefined, undefined, undefined, undefined]);
  });
});

describe('lists', () => {
  test('listItems splits strings and array items at commas', () => {
    expect(listItems('a, b')).toEqual(['a', ' b']);
    expect(listItems(['a,b', 'c'])).toEqual(['a', 'b', 'c']);
    expect(listItems(3)).toBeUndefined();
  });
  test('policies: trimmed, lower-cased, de-duplicated, sorted, empty dropped', () => {
    expect(normalisePolicies(' Dev, default ,dev,,Admin')).toEqual(['admin', 'default', 'dev']);
    expect(normalisePolicies(['B', 'a', 'b '])).toEqual(['a', 'b']);
    expect(normalisePolicies(undefined)).toEqual([]);
    expect(normalisePolicies('')).toEqual([]);
  });
  test('group lists: lower-cased unless case sensitive', () => {
    expect(normaliseGroupList('Ops, admins,ops', false)).toEqual(['admins', 'ops']);
    expect(normaliseGroupList(['Ops', 'ops', ' admins'], true)).toEqual(['Ops', 'admins', 'ops']);
    expect(normaliseGroupList(null, false)).toEqual([]);
  });
  test('CIDRs: trimmed, order kept', () => {
    expect(normaliseCidrs(' 10.0.0.0/8, 192.168.0.1,')).toEqual(['10.0.0.0/8', '192.168.0.1']);
  });
});

describe('syntax checks', () => {
  test('url lists', () => {
    expect(urlListProblems('ldap://a.example.com')).toEqual([]);
    expect(urlListProblems('LDAPS://A.example.com:636,ldap://[::1]:389,ldap://10.0.0.1')).toEqual([]);
    expect(urlListProblems('http://a')).toEqual(['"http://a" must be ldap:// or ldaps:// followed by a host and an optional port, nothing else']);
    expect(urlListProblems('ldap://a,')).toEqual(['entry 2 is empty']);
    expect(urlListProblems('ldap://a/dc=x')).toHaveLength(1);
    expect(urlListProblems('ldap://a, ldap://b')).toHaveLength(1);
    expect(urlListProblems('ldap://a:0')).toEqual(['"ldap://a:0" has port 0; a port must be between 1 and 65535']);
    expect(urlListProblems('ldap://a:65536')).toHaveLength(1);
    expect(urlListProblems('ldap://[1::2::3]')).toEqual(['"ldap://[1::2::3]" has an invalid IPv6 address']);
  });
  test('CIDR blocks', () => {
    for (const ok of ['10.0.0.0/8', '10.1.2.3', '0.0.0.0/0', '::1', '2001:db8::/32', 'fe80::/128']) expect(cidrProblem(ok)).toBeUndefined();
    expect(cidrProblem('10.0.0.0/33')).toBe('has an invalid prefix length (0-32)');
    expect(cidrProblem('2001:db8::/129')).toBe('has an invalid prefix length (0-128)');
    expect(cidrProblem('10.0.0/8')).toBe('is not an IPv4 or IPv6 address or CIDR block');
    expect(cidrProblem('10.0.0.0/8/1')).toBe('is not a CIDR block');
    expect(cidrProblem('10.0.0.0/')).toBe('has an invalid prefix length (0-32)');
  });
  test('templates', () => {
    const fields = ['UserAttr', 'Username'];
    expect(templateProblems('({{.UserAttr}}={{.Username}})', fields)).toEqual([]);
    expect(templateProblems('({{- .UserAttr -}}={{ .Username }})', fields)).toEqual([]);
    expect(templateProblems('(uid={{.Username)', fields)).toEqual(['has an unclosed "{{" (a template action must end with "}}")']);
    expect(templateProblems('(uid={{.UserDN}})', fields)).toEqual([
      'has an unknown template action "{{.UserDN}}" (known: {{.UserAttr}}, {{.Username}})',
    ]);
    expect(templateProblems('(uid={{printf "%s" .Username}})', fields)).toHaveLength(1);
  });
});
