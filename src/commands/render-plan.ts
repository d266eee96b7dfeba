import type { Plan } from '../core/plan.js';
import { renderPlanJson } from '../render/json.js';
import { renderPlanMarkdown } from '../render/markdown.js';
import { renderPlanText } from '../render/text.js';

export type PlanFormat = 'text' | 'json' | 'markdown';

export function renderPlan(plan: Plan, format: PlanFormat, color: boolean): string {
  switch (format) {
    case 'text':
      return renderPlanText(plan, { color });
    case 'json':
      return renderPlanJson(plan);
    case 'markdown':
      return renderPlanMarkdown(plan);
  }
}
