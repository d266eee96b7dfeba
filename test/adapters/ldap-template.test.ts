import { describe, expect, it } from 'vitest';
import {
  DEFAULT_GROUP_FILTER,
  DEFAULT_USER_FILTER,
  FilterTemplateError,
  parseFilterTemplate,
  renderFilterTemplate,
  templateFields,
} from '../../src/adapters/ldap/index.js';

describe('filter templates', () => {
  it('renders the default filters', () => {
    expect(renderFilterTemplate(DEFAULT_USER_FILTER, { UserAttr: 'uid', Username: 'alice' })).toBe('(uid=alice)');
    expect(renderFilterTemplate(DEFAULT_GROUP_FILTER, { UserDN: 'uid=a,dc=x', Username: 'a' })).toBe(
      '(|(memberUid=a)(member=uid=a,dc=x)(uniqueMember=uid=a,dc=x))',
    );
  });

  it('escapes every value for a filter', () => {
    expect(renderFilterTemplate('(uid={{.Username}})', { Username: 'a*)(uid=*' })).toBe('(uid=a\\2a\\29\\28uid=\\2a)');
    expect(renderFilterTemplate('(cn={{.Username}})', { Username: 'back\\slash\u0000' })).toBe('(cn=back\\5cslash\\00)');
  });

  it('accepts spaces and trim markers inside actions', () => {
    expect(renderFilterTemplate('(\n  {{- .UserAttr -}}\n  ={{ .Username }})', { UserAttr: 'uid', Username: 'bob' })).toBe('(uid=bob)');
    expect(renderFilterTemplate('( {{- .UserAttr }} )', { UserAttr: 'uid' })).toBe('(uid )');
  });

  it('reports syntax errors like Go text/template', () => {
    expect(() => parseFilterTemplate('(uid={{.Username}')).toThrow(new FilterTemplateError('template: queryTemplate:1: unclosed action'));
    expect(() => parseFilterTemplate('(uid={{ lower .Username }})')).toThrow(/queryTemplate:1: unsupported action/);
    expect(() => parseFilterTemplate('(|(a=b)\n(uid={{.X)')).toThrow(/queryTemplate:2: unclosed action/);
  });

  it('reports an unknown field at render time', () => {
    expect(() => renderFilterTemplate('({{.UserDN}})', { UserAttr: 'uid', Username: 'a' })).toThrow(/can't evaluate field UserDN/);
  });

  it('lists the fields a template uses', () => {
    expect(templateFields('(&({{.UserAttr}}={{.Username}})(x=y))')).toEqual(['UserAttr', 'Username']);
    expect(templateFields('(mail=static)')).toEqual([]);
  });
});
