import { isJsonObject, type JsonObject } from '../core/json.js';
import type { ApiResponse } from './types.js';

/** Keys of the service's response envelope; a body with none of them is an un-enveloped answer. */
const ENVELOPE_KEYS = ['request_id', 'lease_id', 'data', 'auth', 'warnings', 'wrap_info'] as const;

/** The body as JSON, or why it is not a JSON object. Empty text (a 204) is `null`. */
export function parseBody(text: string): { body: JsonObject | null } | { problem: string } {
  if (text.length === 0) return { body: null };
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return { problem: `body is not JSON (starts with ${snippet(text)})` };
  }
  if (!isJsonObject(value)) return { problem: `body is not a JSON object (starts with ${snippet(text)})` };
  // JSON.parse reads 1e400 as Infinity. Only a number with a 3-digit exponent or 309+ digits can
  // overflow: texts without one (nearly all) skip the walk.
  if (MAYBE_OVERFLOW.test(text)) {
    const field = nonFiniteField(value, '');
    if (field !== undefined) return { problem: `"${field}" is not a finite number` };
  }
  return { body: value };
}

/**
 * A JSON number that could overflow, where a number can start: the text's start, or after `:`,
 * `[` or `,` and JSON white space. Not anywhere in the text: a request_id's hex ("3e456")
 * matched a quarter of all answers, each then walked for nothing.
 */
export const MAYBE_OVERFLOW = /(?:^|[:,[])[ \t\n\r]*-?(?:\d{309}|\d+(?:\.\d+)?[eE][+-]?\d{3})/;

/** The path (`data.ttl`, `data.n[1]`) of the first number in `value` that is not finite. */
function nonFiniteField(value: unknown, at: string): string | undefined {
  if (typeof value === 'number') return Number.isFinite(value) ? undefined : at;
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) {
      const found = nonFiniteField(value[i], `${at}[${i}]`);
      if (found !== undefined) return found;
    }
  } else if (value !== null && typeof value === 'object') {
    for (const [key, item] of Object.entries(value)) {
      const found = nonFiniteField(item, at ? `${at}.${key}` : key);
      if (found !== undefined) return found;
    }
  }
  return undefined;
}

/**
 * A success body as an ApiResponse: the envelope's parts, or for an answer without the envelope
 * (sys/health, operation-token attempts) the whole body as `data`. Returns a problem string when
 * the envelope has the wrong shape.
 */
export function toApiResponse(status: number, body: JsonObject | null): ApiResponse | { problem: string } {
  if (body === null) return { status, data: null, auth: null, warnings: [], body: null };
  if (!ENVELOPE_KEYS.some((k) => k in body)) return { status, data: body, auth: null, warnings: [], body };
  const { data = null, auth = null, warnings = null } = body;
  if (data !== null && !isJsonObject(data)) return { problem: '"data" is not an object' };
  if (auth !== null && !isJsonObject(auth)) return { problem: '"auth" is not an object' };
  if (warnings !== null && !isStringArray(warnings)) return { problem: '"warnings" is not a list of strings' };
  return { status, data, auth, warnings: warnings ?? [], body };
}

/**
 * The server's `errors[]` (strings only; anything else in it is dropped), each as the error it
 * says: the service gathers a backend's errors with go-multierror (vault/request_handling.go),
 * whose `1 error occurred:\n\t* permission denied\n\n` is read as `permission denied` (several
 * as `a; b`), so messages quote the error, not its wrapping.
 */
export function errorsOf(body: JsonObject | null): string[] {
  const errors = body?.errors;
  return Array.isArray(errors) ? errors.filter((e): e is string => typeof e === 'string').map(unwrapGathered) : [];
}

const GATHERED = /^\d+ errors? occurred:\n((?:\t\* [^\n]*\n)+)\n*$/;

function unwrapGathered(error: string): string {
  const m = GATHERED.exec(error);
  if (!m) return error;
  return m[1]!.split('\n').filter((line) => line !== '').map((line) => line.slice('\t* '.length)).join('; ');
}

/** A short, quoted start of a body for a message (the caller scrubs secrets from it). */
export function snippet(text: string, max = 60): string {
  return JSON.stringify(text.length > max ? `${text.slice(0, max)}...` : text);
}


function isStringArray(v: unknown): v is string[] {
  return Array.isArray(v) && v.every((x) => typeof x === 'string');
}
