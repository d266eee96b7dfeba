import { describe, expectTypeOf, it } from 'vitest';
import type { AccessChange } from '../../src/core/access.js';
import type { Change, Plan } from '../../src/core/plan.js';
import type { JsonAccessChange, JsonChange, JsonPlan } from '../../src/render/json.js';

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
    expectTypeOf<JsonPlan['accessChanges']>().toEqualTypeOf<JsonAccessChange[]>();
  });

  it('the plan: its parts, with a summary and the diagnostics', () => {
    expectTypeOf<Exclude<keyof JsonPlan, 'summary' | 'diagnostics'>>().toEqualTypeOf<keyof Plan>();
  });
});
