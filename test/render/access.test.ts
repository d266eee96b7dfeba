import { describe, expect, it } from 'vitest';
import { Address } from '../../src/core/address.js';
import { PLAN_FORMAT_VERSION, type Plan } from '../../src/core/plan.js';
import { renderPlanJson } from '../../src/render/json.js';
import { renderPlanMarkdown } from '../../src/render/markdown.js';
import { renderPlanText } from '../../src/render/text.js';
import { change, east } from '../core/builders.js';

const method = new Address('east', 'auth/ldap');
const crew = Array.from({ length: 27 }, (_, i) => `user${String(i + 1).padStart(2, '0')}`);

function plan(accessChanges: Plan['accessChanges']): Plan {
  return {
    formatVersion: PLAN_FORMAT_VERSION,
    changes: [change({ address: east('auth/ldap/groups/ops'), action: 'update', resourceType: 'ldap.group', before: { policies: ['ops'] }, after: { policies: ['prod-admin'] }, changedFields: ['policies'] })],
    unmanaged: [],
    notes: [],
    ...(accessChanges ? { accessChanges } : {}),
  };
}

describe('the access review in each format', () => {
  const review = [
    { method, policy: 'ops', gained: [], lost: ['bender'] },
    { method, policy: 'prod-admin', gained: crew, lost: [] },
  ];

  it('text: per method, per policy, the first names and the count', () => {
    const text = renderPlanText(plan(review), { color: false });
    expect(text).toContain(
      [
        'Access review (directory users whose login gains or loses a policy):',
        '  east:auth/ldap',
        '    - ops: bender (1 user)',
        '    + prod-admin: user01, user02, user03, user04, user05, user06, user07, user08, user09, user10, … (27 users)',
      ].join('\n'),
    );
    expect(renderPlanText(plan([]), { color: false })).toContain('Access review: no directory user gains or loses a policy.');
    expect(renderPlanText(plan(undefined), { color: false })).not.toContain('Access review');
  });

  it('json: every user, the method as its address', () => {
    const json = JSON.parse(renderPlanJson(plan(review))) as { accessChanges: unknown[] };
    expect(json.accessChanges).toEqual([
      { method: 'east:auth/ldap', policy: 'ops', gained: [], lost: ['bender'], escalation: null },
      { method: 'east:auth/ldap', policy: 'prod-admin', gained: crew, lost: [], escalation: null },
    ]);
    expect((JSON.parse(renderPlanJson(plan(undefined))) as { accessChanges: unknown[] }).accessChanges).toEqual([]);
  });

  it('markdown: a table; folded in <details> when long; counted when the comment is shortened', () => {
    const md = renderPlanMarkdown(plan(review));
    expect(md).toContain('**Access review**: 2 policies change hands for 28 directory users\n\n| Method | Policy | Gained | Lost |');
    expect(md).toContain('| `east:auth/ldap` | `ops` |  | `bender (1 user)` |');
    const many = Array.from({ length: 40 }, (_, i) => ({ method, policy: `p${String(i).padStart(2, '0')}`, gained: [`u${i}`], lost: [] }));
    const folded = renderPlanMarkdown(plan(many));
    expect(folded).toMatch(/<details>\n<summary>Access review: 40 policies change hands for 40 directory users<\/summary>\n\n\| Method/);
    expect(folded).toMatch(/\| `east:auth\/ldap` \| `p39` \| `u39 \(1 user\)` \| {2}\|\n\n<\/details>/);
    const manyMore = Array.from({ length: 400 }, (_, i) => ({ method, policy: `p${String(i).padStart(3, '0')}`, gained: [`u${i}`], lost: [] }));
    const short = renderPlanMarkdown(plan(manyMore), { maxChars: 5_000 });
    expect(short.length).toBeLessThanOrEqual(5_000);
    expect(short).toMatch(/\| … \| \d+ more policies \| \| \|\n\n<\/details>/);
  });

  it('names from the directory are code in markdown and printable in text', () => {
    const odd = [{ method, policy: 'ops', gained: ['@everyone <b>|x', 'tab\there'], lost: [] }];
    expect(renderPlanMarkdown(plan(odd))).toContain('| `@everyone <b>\\|x, tab\\there (2 users)` |');
    expect(renderPlanText(plan(odd), { color: false })).toContain('+ ops: @everyone <b>|x, tab\\there (2 users)');
  });

  it('a called-out gain says what it grants: text, markdown, json', () => {
    const called = [
      { method, policy: 'prod-admin', gained: ['fry'], lost: [], escalation: { grants: 'sudo' as const, path: 'sys/*' } },
      { method, policy: 'writer', gained: ['leela'], lost: [], escalation: { grants: 'write' as const, path: 'auth/ldap/groups/ops' } },
    ];
    const text = renderPlanText(plan(called), { color: false });
    expect(text).toContain('    + prod-admin: fry (1 user) (grants sudo (on "sys/*"))\n    + writer: leela (1 user) (grants write on auth/ldap/groups/ops, which this plan writes)');
    const md = renderPlanMarkdown(plan(called));
    expect(md).toContain('| `east:auth/ldap` | `prod-admin` **grants sudo** on `sys/*` | `fry (1 user)` |  |');
    expect(md).toContain('| `east:auth/ldap` | `writer` **grants write** on `auth/ldap/groups/ops`, which this plan writes | `leela (1 user)` |  |');
    const json = JSON.parse(renderPlanJson(plan(called))) as { accessChanges: Array<{ escalation: unknown }> };
    expect(json.accessChanges.map((c) => c.escalation)).toEqual([
      { grants: 'sudo', path: 'sys/*' },
      { grants: 'write', path: 'auth/ldap/groups/ops' },
    ]);
  });

  it("a server's policy path is shown printable in text and as code in markdown", () => {
    const odd = [{ method, policy: 'p', gained: ['fry'], lost: [], escalation: { grants: 'sudo' as const, path: 'sys/`x|\u001b[31m' } }];
    expect(renderPlanText(plan(odd), { color: false })).not.toContain('\u001b');
    const md = renderPlanMarkdown(plan(odd));
    expect(md).not.toContain('\u001b');
    expect(md).toContain('**grants sudo** on ``');
  });
});
