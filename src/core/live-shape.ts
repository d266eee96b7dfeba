import { shapeProblems, type FieldShape, type ShapeProblem } from './json-shape.js';

/**
 * Live answers checked before a planner sees them. Every kind reads through `checkLiveAnswer`
 * with a shape built from its own field table (core/json-shape), so a server that answers
 * `url: ["a"]` or `token_ttl: "abc"` is an error naming cluster, path and field, never a value
 * quietly normalised into a plan. Only the fields a kind knows are checked: a newer release
 * that adds fields is accepted.
 */

/** Where an answer came from: how its errors name it. */
export interface AnswerSource {
  cluster: string;
  /** POST too: some answers that matter come from writes (a DR operation-token attempt). */
  method: 'GET' | 'LIST' | 'POST';
  /** The request path relative to the base URL. */
  path: string;
}

/** A live answer that does not have the shape lockstep expects. The message holds no value. */
export class LiveShapeError extends Error {
  constructor(
    readonly source: AnswerSource,
    readonly problems: readonly ShapeProblem[],
  ) {
    super(describeProblems(source, problems));
    this.name = 'LiveShapeError';
  }
}

/** How many problems one message lists before "and N more". */
const LISTED = 5;

function describeProblems(source: AnswerSource, problems: readonly ShapeProblem[]): string {
  // Field names are printable: json-shape escapes the keys that come from the answer.
  const listed = problems.slice(0, LISTED).map((p) => `field "${p.field}" ${p.problem}`);
  const more = problems.length > LISTED ? `; and ${problems.length - LISTED} more` : '';
  return `${source.cluster}: ${source.method} ${source.path}: ${listed.join('; ')}${more}`;
}

/** `data` when it has `shape`; else a LiveShapeError naming cluster, path and every bad field. */
export function checkLiveAnswer<T>(source: AnswerSource, data: T, shape: FieldShape): T {
  const problems = shapeProblems(data, shape);
  if (problems.length > 0) throw new LiveShapeError(source, problems);
  return data;
}
