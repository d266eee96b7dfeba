import { describe, expect, it } from 'vitest';
import { Address } from '../../src/core/address.js';
import { PLAN_FORMAT_VERSION, type Plan } from '../../src/core/plan.js';
import { DEFAULT_COMMENT_LIMIT, MIN_COMMENT_LIMIT, renderPlanMarkdown } from '../../src/render/markdown.js';
import { change } from '../core/builders.js';
import { fullPlan } from './fixtures.js';

const user = (i: number): Address => new Address('east', `auth/ldap/users/u${String(i).padStart(5, '0')}`);

/** A plan far over one comment: creates, destructive deletes, unmanaged objects and notes. */
function bigPlan(creates: number, deletes: number): Plan {
  return {
    formatVersion: PLAN_FORMAT_VERSION,
    changes: [
      ...Array.from({ length: creates }, (_, i) =>
        change({ address: user(i), resourceType: 'ldap.user', action: 'create', after: { policies: [`p${i}`], groups: ['ops'] }, changedFields: ['groups', 'policies'] }),
      ),
      ...Array.from({ length: deletes }, (_, i) =>
        change({ address: user(creates + i), resourceType: 'ldap.user', action: 'delete', reason: 'prune', destructive: true, before: { policies: ['gone'] }, changedFields: ['policies'] }),
      ),
    ],
    unmanaged: Array.from({ length: 300 }, (_, i) => ({ address: new Address('east', `auth/ldap/groups/g${i}`), resourceType: 'ldap.group' })),
    notes: Array.from({ length: 50 }, (_, i) => ({ severity: 'warning' as const, address: user(i), message: `note ${i}` })),
  };
}

/** Every fence and <details> block the comment opens, it closes. */
function expectWellFormed(md: string): void {
  expect(md.match(/<details>/g)?.length ?? 0).toBe(md.match(/<\/details>/g)?.length ?? 0);
  expect((md.match(/^```/gm)?.length ?? 0) % 2).toBe(0);
}

describe('markdown comment limit', () => {
  it('leaves a plan that fits exactly as it is', () => {
    const plan = fullPlan();
    const full = renderPlanMarkdown(plan);
    expect(renderPlanMarkdown(plan, { maxChars: full.length })).toBe(full);
    expect(renderPlanMarkdown(plan, { maxChars: 0 })).toBe(full);
  });

  it('shortens a long plan under the limit, keeping the summary, every warning head and counts of what it left out', () => {
    const plan = bigPlan(3000, 400);
    const full = renderPlanMarkdown(plan);
    expect(full.length).toBeGreaterThan(DEFAULT_COMMENT_LIMIT);

    const md = renderPlanMarkdown(plan, { maxChars: DEFAULT_COMMENT_LIMIT });
    expect(md.length).toBeLessThanOrEqual(DEFAULT_COMMENT_LIMIT);
    expectWellFormed(md);
    // The heading still sums up the whole plan, and the destructive warning counts them all.
    expect(md.split('\n')[0]).toBe('### lockstep plan: 3000 to add, 0 to change, 400 to delete (400 destructive)');
    expect(md).toContain('> :warning: **400 destructive changes**');

    const listed = md.split('\n').filter((l) => /^\| (create|delete)/.test(l)).length;
    const diffs = md.match(/<details>/g)?.length ?? 0;
    // Every destructive delete is listed before any create gets room (the creates' rows come
    // after the destructive diffs, which fill this comment: none of them is listed).
    expect(md.split('\n').filter((l) => l.startsWith('| delete (prune, destructive) |'))).toHaveLength(400);
    expect(listed).toBeGreaterThanOrEqual(400);
    expect(md).toContain(`| … | ${3400 - listed} more changes | |`);
    expect(md).toContain(`_… ${3400 - diffs} more diffs not shown._`);
    expect(md.trimEnd().split('\n').at(-1)).toBe(
      `_This comment is shortened to stay under 60,000 characters: ${listed} of 3400 changes listed, ${diffs} of 3400 diffs shown, ` +
        'destructive changes, deletes and updates first. ' +
        'Run `lockstep plan` (text or `--format json`) for the whole plan, or `--comment-limit 0` for an unshortened comment._',
    );
  });

  it('gives the table, then destructive changes, notes and unmanaged objects room before the diffs', () => {
    const plan = bigPlan(200, 20);
    const table = renderPlanMarkdown({ ...plan, unmanaged: [], notes: [] }).split('\n\n<details>')[0]!;
    // Room for the table, the warning and the lists, but not for every diff.
    const md = renderPlanMarkdown(plan, { maxChars: table.length + 20_000 });
    expectWellFormed(md);
    expect(md).not.toContain('more change');
    expect(md).not.toContain('> - … and');
    expect(md).toContain('- :warning: warning: `east:auth/ldap/users/u00049`: `note 49`');
    expect(md).toContain('- `east:auth/ldap/groups/g299`');
    expect(md).toMatch(/_… \d+ more diffs not shown\._/);
  });

  it('shows the diffs of updates before those of creates, in plan order', () => {
    const creates = bigPlan(400, 0).changes;
    const update = change({
      address: new Address('east', 'auth/ldap/config'),
      resourceType: 'ldap.config',
      action: 'update',
      before: { url: 'ldap://old.example.com' },
      after: { url: 'ldap://new.example.com' },
      changedFields: ['url'],
    });
    const md = renderPlanMarkdown({ ...bigPlan(0, 0), changes: [...creates, update], unmanaged: [], notes: [] }, { maxChars: 40_000 });
    expect(md).toContain('- url: "ldap://old.example.com"\n+ url: "ldap://new.example.com"');
    const summaries = md.match(/<summary>.*<\/summary>/g)!;
    expect(summaries.at(-1)).toBe('<summary><code>~ east:auth/ldap/config</code></summary>');
    expect(summaries.length).toBeLessThan(401);
  });

  it('never goes over the limit, whatever the limit', () => {
    const plan = bigPlan(600, 60);
    for (let limit = MIN_COMMENT_LIMIT; limit <= 120_000; limit += 3_917) {
      const md = renderPlanMarkdown(plan, { maxChars: limit });
      expect(md.length, `limit ${limit}`).toBeLessThanOrEqual(limit);
      expectWellFormed(md);
    }
  });
});
