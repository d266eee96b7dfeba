import { describe, expect, it } from 'vitest';
import { Address } from '../../src/core/address.js';
import { PLAN_FORMAT_VERSION, type Plan } from '../../src/core/plan.js';
import { Secret } from '../../src/core/secret.js';
import { renderApplyProgress, renderApplyReport } from '../../src/render/apply-report.js';
import { renderPlanJson } from '../../src/render/json.js';
import { renderPlanMarkdown } from '../../src/render/markdown.js';
import { renderPlanText } from '../../src/render/text.js';
import { change } from '../core/builders.js';

const CANARY = 'CANARY-7f3a9c1e-do-not-print';

/** A plan that (wrongly) carries secrets: Secret objects anywhere, and clear text in sensitive fields. */
function leakyPlan(): Plan {
  const secret = new Secret(CANARY, 'env:CANARY');
  return {
    formatVersion: PLAN_FORMAT_VERSION,
    changes: [
      change({
        address: new Address('east', 'auth/ldap/config'),
        action: 'update',
        before: { bindpass: CANARY, url: 'ldap://a', pem: `a\n${CANARY}\n` },
        after: { bindpass: secret as never, url: 'ldap://b', pem: secret as never },
        changedFields: ['bindpass', 'pem', 'url'],
        sensitiveFields: ['bindpass', 'pem'],
        writeOnlyFields: ['client_tls_key'],
      }),
      change({
        address: new Address('east', 'auth/ldap/groups/g'),
        action: 'create',
        after: { nested: { deep: [secret] } as never, direct: secret as never, multi: secret as never },
        changedFields: ['direct', 'multi', 'nested'],
      }),
      change({
        address: new Address('east', 'auth/ldap/users/u'),
        action: 'update',
        before: { token: secret as never },
        after: { token: 'x' },
        changedFields: ['token'],
      }),
      change({
        address: new Address('east', 'sys/replication/dr'),
        action: 'transition',
        before: { mode: 'secondary', token: secret as never },
        after: { mode: 'primary', token: CANARY },
        sensitiveFields: ['token'],
      }),
    ],
    unmanaged: [],
    notes: [],
  };
}

describe('no secret in any format', () => {
  const renders: Array<[string, (p: Plan) => string]> = [
    ['text', (p) => renderPlanText(p, { color: false })],
    ['text (colour)', (p) => renderPlanText(p, { color: true })],
    ['json', renderPlanJson],
    ['markdown', renderPlanMarkdown],
  ];
  for (const [name, render] of renders) {
    it(`${name}: Secret objects and sensitive fields render as (sensitive)`, () => {
      const out = render(leakyPlan());
      expect(out).not.toContain(CANARY);
      expect(out).not.toContain('CANARY');
      expect(out).toContain('(sensitive)');
    });
  }

  it('json keeps the structure, with every secret replaced', () => {
    const json = JSON.parse(renderPlanJson(leakyPlan()));
    expect(json.changes[0].before.bindpass).toBe('(sensitive)');
    expect(json.changes[0].after.bindpass).toBe('(sensitive)');
    expect(json.changes[1].after.nested).toEqual({ deep: ['(sensitive)'] });
    expect(json.changes[3].after.token).toBe('(sensitive)');
  });

  it('apply progress and report carry the error text only', () => {
    const c = leakyPlan().changes[0]!;
    const out = [
      renderApplyProgress({ type: 'failed', change: c, error: 'POST x: 400 Bad Request: bad (sensitive)' }),
      renderApplyReport({ done: [], failed: [{ change: c, error: 'boom' }], notStarted: [] }),
    ].join('\n');
    expect(out).not.toContain('CANARY');
  });
});
