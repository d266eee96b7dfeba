/**
 * Compares the normalised answers of the two servers to one case: the status, then the body
 * member by member (the envelope's keys, `data`'s keys and values, `warnings`, `errors`). Lists
 * are compared whole: an error list or a policy list differs as one value.
 */
import { isDeepStrictEqual } from 'node:util';
import type { Answer } from './exchange.js';

export interface Difference {
  case: string;
  /** `status`, `body` (not both objects), or the dotted member: `body.data.version`, `body.errors`. */
  at: string;
  /** undefined: the member is absent on that side. */
  serve: unknown;
  real: unknown;
}

export function compareAnswers(caseId: string, serve: Answer, real: Answer): Difference[] {
  const found: Difference[] = [];
  if (serve.status !== real.status) found.push({ case: caseId, at: 'status', serve: serve.status, real: real.status });
  walk(caseId, 'body', serve.body, real.body, found);
  return found;
}

function walk(caseId: string, at: string, serve: unknown, real: unknown, found: Difference[]): void {
  if (isRecord(serve) && isRecord(real)) {
    for (const key of new Set([...Object.keys(serve), ...Object.keys(real)])) {
      walk(caseId, `${at}.${key}`, Object.hasOwn(serve, key) ? serve[key] : undefined, Object.hasOwn(real, key) ? real[key] : undefined, found);
    }
    return;
  }
  if (!isDeepStrictEqual(serve, real)) found.push({ case: caseId, at, serve, real });
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}
