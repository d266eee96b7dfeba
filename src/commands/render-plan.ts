import type { Diagnostics } from '../core/diagnostics.js';
import type { Plan } from '../core/plan.js';
import { renderPlanJson } from '../render/json.js';
import { renderPlanMarkdown } from '../render/markdown.js';
import { renderPlanText } from '../render/text.js';

export type PlanFormat = 'text' | 'json' | 'markdown';

export interface RenderOptions {
  color: boolean;
  /** Most characters of a markdown comment; 0 or absent for no limit. */
  commentLimit?: number;
  /** What the engine found while planning: carried by `--format json` (`diagnostics[]`) and the markdown notes. */
  diagnostics?: Diagnostics;
}

export function renderPlan(plan: Plan, format: PlanFormat, opts: RenderOptions): string {
  switch (format) {
    case 'text':
      return renderPlanText(plan, { color: opts.color });
    case 'json':
      return renderPlanJson(plan, opts.diagnostics);
    case 'markdown':
      return renderPlanMarkdown(plan, { maxChars: opts.commentLimit, diagnostics: opts.diagnostics?.items });
  }
}
