import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parseAllDocuments, stringify } from 'yaml';
import { formatManifestText } from '../../src/load/format.js';

function format(text: string): string {
  const r = formatManifestText(text);
  if (r.kind !== 'formatted') throw new Error(r.reason);
  return r.text;
}

describe('formatManifestText', () => {
  it('lays a manifest out canonically and keeps comments, blank lines, key order, styles and quoting', () => {
    const given = [
      '# the LDAP method',
      'apiVersion:   lockstep/v1',
      'kind: LdapAuth   # trailing',
      'config:',
      '    url: "ldap://x"\r',
      '    token_policies: [ a,  b ]',
      "    userfilter: '({{.UserAttr}}={{.Username}})'",
      'groups:',
      '    admins: {policies: [admin]}',
      '',
      '    # the devs',
      '    devs:',
      '      policies:',
      '      - dev',
      '---',
      'apiVersion: lockstep/v1',
      'kind: Cluster',
      '',
      '',
    ].join('\n');
    expect(format(given)).toBe(
      [
        '# the LDAP method',
        'apiVersion: lockstep/v1',
        'kind: LdapAuth # trailing',
        'config:',
        '  url: "ldap://x"',
        '  token_policies: [ a, b ]',
        "  userfilter: '({{.UserAttr}}={{.Username}})'",
        'groups:',
        '  admins: { policies: [ admin ] }',
        '',
        '  # the devs',
        '  devs:',
        '    policies:',
        '      - dev',
        '---',
        'apiVersion: lockstep/v1',
        'kind: Cluster',
        '',
      ].join('\n'),
    );
  });

  it('says unchanged for canonical text, and an empty file stays empty', () => {
    expect(formatManifestText('a: 1\n')).toEqual({ kind: 'formatted', text: 'a: 1\n', changed: false });
    expect(formatManifestText('')).toEqual({ kind: 'formatted', text: '', changed: false });
  });

  it('keeps the values of any document, and formatting twice changes nothing more (generated documents and layouts)', () => {
    const scalar = fc.oneof(fc.string(), fc.integer(), fc.boolean(), fc.constant(null), fc.constant('${env:X}'), fc.constant('a: b'), fc.constant('- x'));
    const value = fc.letrec((tie) => ({
      node: fc.oneof({ depthSize: 'small' }, scalar, fc.array(tie('node'), { maxLength: 4 }), fc.dictionary(fc.string({ minLength: 1, maxLength: 8 }), tie('node'), { maxKeys: 4 })),
    })).node;
    fc.assert(
      fc.property(fc.array(fc.dictionary(fc.string({ minLength: 1, maxLength: 8 }), value, { maxKeys: 5 }), { minLength: 1, maxLength: 3 }), fc.integer({ min: 1, max: 6 }), fc.boolean(), (docs, indent, flow) => {
        const text = docs.map((d) => stringify(d, { indent, collectionStyle: flow ? 'flow' : 'block', lineWidth: 20 })).join('---\n');
        const once = format(text);
        expect(parseAllDocuments(once).map((d) => d.toJS() as unknown)).toEqual(parseAllDocuments(text).map((d) => d.toJS() as unknown));
        expect(format(once)).toBe(once);
      }),
      { numRuns: 100 },
    );
  });
});
