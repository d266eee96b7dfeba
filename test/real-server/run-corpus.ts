/**
 * Runs the corpus against both servers, case after case (each sent to both at once), each side
 * capturing its own values; answers the differences of the normalised answers.
 */
import type { Difference } from './compare.js';
import { compareAnswers } from './compare.js';
import type { Case } from './corpus.js';
import { send, valueAt, type Answer, type Target } from './exchange.js';
import { normalise } from './normalise.js';

export interface CorpusRun {
  differences: Difference[];
  /** Values a case was to capture and did not find: the cases using them cannot be compared. */
  missing: string[];
  /** Each case's raw answers, for the report of a difference. */
  answers: Map<string, { serve: Answer; real: Answer }>;
}

export async function runCorpus(corpus: readonly Case[], serve: Target, real: Target, given: ReadonlyMap<string, string>): Promise<CorpusRun> {
  const values = { serve: new Map(given), real: new Map(given) };
  const differences: Difference[] = [];
  const answers = new Map<string, { serve: Answer; real: Answer }>();
  const missing: string[] = [];
  for (const c of corpus) {
    const [s, r] = await Promise.all([send(serve, c, values.serve), send(real, c, values.real)]);
    answers.set(c.id, { serve: s, real: r });
    for (const [name, path] of Object.entries(c.capture ?? {})) {
      for (const [side, answer, into] of [['serve', s, values.serve], ['real', r, values.real]] as const) {
        const value = valueAt(answer.body, path);
        if (typeof value === 'string') into.set(name, value);
        else missing.push(`${c.id} (${side}): no string at ${path} to capture as ${name}: ${answer.status} ${JSON.stringify(answer.body)}`);
      }
    }
    differences.push(...compareAnswers(c.id, { status: s.status, body: normalise(s.body) }, { status: r.status, body: normalise(r.body) }));
  }
  return { differences, missing, answers };
}
