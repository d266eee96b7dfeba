import { describe, expectTypeOf, it } from 'vitest';
import type { AccessChange } from '../../src/core/access.js';
import type { Change, Plan, PlanSummary } from '../../src/core/plan.js';
import type { APPLY_RESULTS, CHANGE_OUTCOMES, JsonAppliedChange, JsonApply } from '../../src/render/apply-json.js';
import type { JsonAccessChange, JsonChange, JsonPlan } from '../../src/render/json.js';
import type { JsonValidation } from '../../src/render/validate-json.js';

// The JSON plan is derived from the change model (src/core/plan.ts): a field added to Change
// reaches `--format json` (and the saved plan's shape check, by its `satisfies` clauses) or the
// typecheck fails. Checked by the typecheck (`npm run typecheck` covers test/).
describe('the JSON plan and the change model agree', () => {
  it('every field of a change but what only apply reads (guards, owner), optional ones always present', () => {
    expectTypeOf<keyof JsonChange>().toEqualTypeOf<Exclude<keyof Change, 'guards' | 'owner'>>();
    expectTypeOf<JsonChange['action']>().toEqualTypeOf<Change['action']>();
    expectTypeOf<JsonChange['reason']>().toEqualTypeOf<Change['reason']>();
    expectTypeOf<JsonChange['address']>().toEqualTypeOf<string>();
    expectTypeOf<JsonChange['dependsOn']>().toEqualTypeOf<string[]>();
    expectTypeOf<JsonChange['clearedFields']>().toEqualTypeOf<string[]>();
  });

  it('an access change: every field of the model, the method as its address text', () => {
    expectTypeOf<keyof JsonAccessChange>().toEqualTypeOf<keyof AccessChange>();
    expectTypeOf<JsonAccessChange['method']>().toEqualTypeOf<string>();
    expectTypeOf<JsonAccessChange['gained']>().toEqualTypeOf<string[]>();
    expectTypeOf<JsonAccessChange['lost']>().toEqualTypeOf<string[]>();
    expectTypeOf<JsonAccessChange['escalation']>().toEqualTypeOf<{ grants: 'sudo' | 'write'; path: string } | null>();
    expectTypeOf<JsonPlan['accessChanges']>().toEqualTypeOf<JsonAccessChange[]>();
  });

  it('the plan: its parts, with a summary and the diagnostics', () => {
    expectTypeOf<Exclude<keyof JsonPlan, 'summary' | 'diagnostics'>>().toEqualTypeOf<keyof Plan>();
  });
});

// The apply and validate documents reuse the plan's parts: a change's own fields as JsonChange
// types them, the outcome names from their constants, the one diagnostic shape of every document.
describe('the JSON apply and validate documents and the models they report', () => {
  it("a change of the apply: the plan's fields for it, typed as the plan's, and an outcome", () => {
    expectTypeOf<keyof JsonAppliedChange>().toEqualTypeOf<'address' | 'resourceType' | 'action' | 'reason' | 'destructive' | 'outcome' | 'error'>();
    expectTypeOf<JsonAppliedChange['action']>().toEqualTypeOf<JsonChange['action']>();
    expectTypeOf<JsonAppliedChange['reason']>().toEqualTypeOf<JsonChange['reason']>();
    expectTypeOf<JsonAppliedChange['address']>().toEqualTypeOf<JsonChange['address']>();
    expectTypeOf<JsonAppliedChange['outcome']>().toEqualTypeOf<(typeof CHANGE_OUTCOMES)[number]>();
  });

  it("the apply: a result from its constants, the plan's counts and one per outcome, the diagnostics as the plan's", () => {
    expectTypeOf<JsonApply['result']>().toEqualTypeOf<(typeof APPLY_RESULTS)[number]>();
    expectTypeOf<keyof JsonApply['summary']>().toEqualTypeOf<keyof PlanSummary | (typeof CHANGE_OUTCOMES)[number]>();
    expectTypeOf<JsonApply['formatVersion']>().toEqualTypeOf<JsonPlan['formatVersion']>();
    expectTypeOf<JsonApply['diagnostics']>().toEqualTypeOf<JsonPlan['diagnostics']>();
  });

  it('validate: the verdict, the documents read, the diagnostics as the plan carries them', () => {
    expectTypeOf<keyof JsonValidation>().toEqualTypeOf<'valid' | 'documents' | 'diagnostics'>();
    expectTypeOf<JsonValidation['diagnostics']>().toEqualTypeOf<JsonPlan['diagnostics']>();
  });
});
