import { describe, expect, it } from 'vitest';
import { Address } from '../../src/core/address.js';
import { PLAN_FORMAT_VERSION, type Plan } from '../../src/core/plan.js';
import { renderPlanJson } from '../../src/render/json.js';
import { renderPlanMarkdown } from '../../src/render/markdown.js';
import { renderPlanText } from '../../src/render/text.js';
import { change } from '../core/builders.js';
import { emptyPlan, fullPlan } from './fixtures.js';
import { expectGolden } from './golden.js';

const ESC = '\u001b[';

describe('text plan', () => {
  it('renders every kind of change (golden)', () => {
    expectGolden('plan.txt', renderPlanText(fullPlan(), { color: false }));
  });

  it('renders the empty plan as the contract sentence, exactly', () => {
    expect(renderPlanText(emptyPlan(), { color: false })).toBe('No changes. Live state matches the manifests.');
    expectGolden('empty.txt', renderPlanText(emptyPlan(), { color: false }));
  });

  it('still lists unmanaged objects and notes when nothing changes, and never says the state matches then', () => {
    const plan = fullPlan();
    plan.changes = [];
    const text = renderPlanText(plan, { color: false });
    expect(text).toMatch(/^No changes to make, but \d+ objects? on the servers (is|are) in no manifest \(unmanaged, below\)\.\n\nUnmanaged \(/);
    expect(text).not.toContain('matches');
    expect(text).toContain('  east:auth/ldap/users/carol');
    expect(text).not.toContain('Plan:');
  });

  it("reproduces the contract's example", () => {
    const plan: Plan = {
      formatVersion: PLAN_FORMAT_VERSION,
      changes: [
        change({ address: new Address('east', 'auth/ldap/groups/admins'), action: 'create', after: { policies: ['admin'] } }),
        change({
          address: new Address('east', 'auth/ldap/config'),
          action: 'update',
          before: { url: 'ldap://a.example.com', bindpass: '(sensitive)' },
          after: { url: 'ldaps://b.example.com', bindpass: '(sensitive)' },
          changedFields: ['url', 'bindpass'],
          sensitiveFields: ['bindpass'],
        }),
        change({ address: new Address('east', 'auth/ldap/users/bob'), action: 'delete', reason: 'prune', before: { policies: [] } }),
      ],
      unmanaged: [],
      notes: [],
    };
    expect(renderPlanText(plan, { color: false })).toBe(
      [
        '  + east:auth/ldap/groups/admins',
        '      policies: ["admin"]',
        '  ~ east:auth/ldap/config',
        '      url: "ldap://a.example.com" -> "ldaps://b.example.com"',
        '      bindpass: (sensitive)',
        '  - east:auth/ldap/users/bob   (prune)',
        'Plan: 1 to add, 1 to change, 1 to delete.',
      ].join('\n'),
    );
  });

  it('appends transitions and the destructive count to the summary only when there are some', () => {
    expect(renderPlanText(fullPlan(), { color: false })).toMatch(/\nPlan: 3 to add, 1 to change, 2 to delete, 2 transitions \(2 destructive\)\.$/);
    const plan = fullPlan();
    plan.changes = plan.changes.filter((c) => c.action !== 'transition');
    plan.unmanaged = [];
    plan.notes = [];
    expect(renderPlanText(plan, { color: false })).toMatch(/\nPlan: 3 to add, 1 to change, 2 to delete \(1 destructive\)\.$/);
    plan.changes = plan.changes.filter((c) => !c.destructive);
    expect(renderPlanText(plan, { color: false })).toMatch(/\nPlan: 3 to add, 1 to change, 1 to delete\.$/);
  });

  it('colours only when asked', () => {
    const on = renderPlanText(fullPlan(), { color: true });
    const off = renderPlanText(fullPlan(), { color: false });
    expect(on).toContain(ESC);
    expect(on).toContain(`${ESC}32m+`); // green create
    expect(on).toContain(`${ESC}33m~`); // yellow update
    expect(on).toContain(`${ESC}31m-`); // red delete
    expect(on).toContain(`${ESC}36m>`); // cyan transition
    expect(off).not.toContain('\u001b');
    // eslint-disable-next-line no-control-regex -- strips the ANSI colour codes (ESC [ n m)
    expect(on.replace(/\u001b\[\d+m/g, '')).toBe(off);
  });

  it('neutralises control characters coming from server names', () => {
    const plan = emptyPlan();
    plan.unmanaged = [{ address: new Address('east', 'auth/ldap/users/x\u001b[2Jy'), resourceType: 'ldap.user' }];
    const text = renderPlanText(plan, { color: false });
    expect(text).not.toContain('\u001b');
    expect(text).toContain('x\\u001b[2Jy');
  });
});

describe('json plan', () => {
  it('renders the same plan (golden)', () => {
    expectGolden('plan.json', renderPlanJson(fullPlan()));
  });

  it('has the fields scripts rely on', () => {
    const json = JSON.parse(renderPlanJson(fullPlan()));
    expect(json.formatVersion).toBe(PLAN_FORMAT_VERSION);
    expect(json.summary).toEqual({ add: 3, change: 1, delete: 2, transition: 2, destructive: 2 });
    const config = json.changes.find((c: { address: string }) => c.address === 'east:auth/ldap/config');
    expect(config).toMatchObject({
      action: 'update',
      reason: 'declared',
      changedFields: ['certificate', 'token_ttl', 'url'],
      writeOnlyFields: ['bindpass', 'client_tls_cert'],
      sensitiveFields: ['bindpass'],
      destructive: false,
      dependsOn: ['east:auth/ldap'],
    });
    expect(json.unmanaged[0]).toEqual({ address: 'east:auth/ldap/groups/ops', resourceType: 'ldap.group' });
    expect(json.notes[0].address).toBe('west:sys/replication/dr');
  });

  it('renders the empty plan (golden)', () => {
    expectGolden('empty.json', renderPlanJson(emptyPlan()));
  });
});

describe('markdown plan', () => {
  it('renders the same plan (golden)', () => {
    expectGolden('plan.md', renderPlanMarkdown(fullPlan()));
  });

  it('renders the empty plan (golden)', () => {
    expectGolden('empty.md', renderPlanMarkdown(emptyPlan()));
  });

  it('calls destructive changes out', () => {
    const md = renderPlanMarkdown(fullPlan());
    expect(md).toContain('> :warning: **2 destructive changes**');
    expect(md).toContain('| delete (destructive) | `east:team-a/sys/managed-keys/pkcs11/old-key` |');
  });

  it('keeps a value from closing its code block or breaking the table', () => {
    const plan = emptyPlan();
    plan.changes = [
      change({ address: new Address('east', 'auth/ldap/groups/a|b'), action: 'create', after: { description: 'x\n```\ny' } }),
    ];
    const md = renderPlanMarkdown(plan);
    expect(md).toContain('````diff');
    expect(md).toContain('`east:auth/ldap/groups/a\\|b`');
  });
});
