import { describe, expect, test } from 'vitest';
import { listItems, normaliseCidrs, normaliseGroupList, normalisePolicies } from '../../../src/kinds/ldap-auth/values.js';
import { urlListProblems } from '../../../src/kinds/ldap-auth/syntax.js';
import { templateProblems } from '../../../src/kinds/ldap-auth/template.js';

describe('lists', () => {
  test('listItems: lists as sent (comma-joined), read as the service reads a comma list', () => {
    expect(listItems('a, b')).toEqual(['a', 'b']);
    expect(listItems(['a,b', 'c'])).toEqual(['a', 'b', 'c']);
    expect(listItems(3)).toEqual(['3']);
    expect(listItems({ a: 1 })).toBeUndefined();
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
