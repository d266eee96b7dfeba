import { describe, expect, it } from 'vitest';
import { PLAN_FORMAT_VERSION, type Plan } from '../../../src/core/plan.js';
import { drReplicationKind } from '../../../src/kinds/dr-replication/index.js';
import { orderChanges } from '../../../src/order/order.js';
import { renderPlanJson } from '../../../src/render/json.js';
import { renderPlanMarkdown } from '../../../src/render/markdown.js';
import { renderPlanText } from '../../../src/render/text.js';
import { DOWN, planFor, primaryStatus, secondaryStatus, drDoc, kindContext } from './fixtures.js';

const TOKEN = 'CANARY-dr-operation-token-4f1c';
const SHARE = 'ca11ab1e0ddba11ca11ab1e0ddba11ca';
const E = 'https://east:8201';
const steady = { east: primaryStatus('C1', ['west', 'south'], E), west: secondaryStatus('C1', 'west', E), south: secondaryStatus('C1', 'south', E) };
const secrets = { operationTokens: { west: `${TOKEN}-west`, east: `${TOKEN}-east` }, keyShares: [SHARE, `${SHARE}ff`] };

function everyRendering(plan: Plan): string {
  return [renderPlanText(plan, { color: false }), renderPlanJson(plan), renderPlanMarkdown(plan), JSON.stringify(plan)].join('\n');
}

describe('DR secrets never leave lockstep', () => {
  it('not in the desired state as JSON', () => {
    const desired = drReplicationKind.desired([drDoc({ primary: 'east', secondaries: ['west'], ...secrets })], kindContext(['east', 'west']));
    const text = JSON.stringify(desired);
    expect(text).not.toContain(TOKEN);
    expect(text).not.toContain(SHARE);
    expect(desired.resources[0]!.sensitiveFields).toEqual(['keyShares.0', 'keyShares.1', 'operationTokens.east', 'operationTokens.west']);
  });

  it('not in a failover plan, its notes, or any rendering of it', () => {
    const kindPlan = planFor({ primary: 'west', secondaries: ['east', 'south'], ...secrets }, steady, { allowUnreachablePrimary: true });
    expect(kindPlan.errors).toEqual([]);
    const plan: Plan = { formatVersion: PLAN_FORMAT_VERSION, changes: orderChanges(kindPlan.changes), unmanaged: [], notes: kindPlan.notes };
    const text = everyRendering(plan);
    expect(text).not.toContain(TOKEN);
    expect(text).not.toContain(SHARE);
    expect(text).toContain('dr_operation_token: (sensitive, write-only)');
  });

  it('not in refusals', () => {
    const kindPlan = planFor({ primary: 'west', secondaries: ['east', 'south'], ...secrets }, { ...steady, east: DOWN });
    expect(kindPlan.errors.length).toBeGreaterThan(0);
    expect(JSON.stringify(kindPlan)).not.toContain(TOKEN);
    expect(JSON.stringify(kindPlan)).not.toContain(SHARE);
  });
});
