import { describe, expect, it } from 'vitest';
import { filterTemplateError } from '../../src/server/ldap/filter-template.js';
import { normalisePolicies, sortedUnique, trimmedList } from '../../src/server/util/lists.js';

describe('lists', () => {
  it('normalises policies and names', () => {
    expect(normalisePolicies(['B', 'a', ' b ', ''])).toEqual(['a', 'b']);
    expect(sortedUnique(['B', 'a', 'B'], false)).toEqual(['B', 'a']);
  });
  it('reads a comma-string-slice field as the framework does: empty items kept', () => {
    expect(trimmedList(' a, b ,,c ')).toEqual(['a', 'b', '', 'c']);
    expect(trimmedList('')).toEqual([]);
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
