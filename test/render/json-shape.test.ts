import { describe, expectTypeOf, it } from 'vitest';
import type { Change, Plan } from '../../src/core/plan.js';
import type { JsonChange, JsonPlan } from '../../src/render/json.js';

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

  it('the plan: its parts, with a summary and the diagnostics', () => {
    expectTypeOf<Exclude<keyof JsonPlan, 'summary' | 'diagnostics'>>().toEqualTypeOf<keyof Plan>();
  });
});
