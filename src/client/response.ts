import type { JsonObject } from '../core/json.js';
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
  if (!isObject(value)) return { problem: `body is not a JSON object (starts with ${snippet(text)})` };
  return { body: value };
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
  if (data !== null && !isObject(data)) return { problem: '"data" is not an object' };
  if (auth !== null && !isObject(auth)) return { problem: '"auth" is not an object' };
  if (warnings !== null && !isStringArray(warnings)) return { problem: '"warnings" is not a list of strings' };
  return { status, data, auth, warnings: warnings ?? [], body };
}

/** The server's `errors[]` (strings only; anything else in it is dropped). */
export function errorsOf(body: JsonObject | null): string[] {
  const errors = body?.errors;
  return Array.isArray(errors) ? errors.filter((e): e is string => typeof e === 'string') : [];
}

/** A short, quoted start of a body for a message (the caller scrubs secrets from it). */
export function snippet(text: string, max = 60): string {
  return JSON.stringify(text.length > max ? `${text.slice(0, max)}...` : text);
}

export function isObject(v: unknown): v is JsonObject {
  return v !== null && typeof v === 'object' && !Array.isArray(v);
}

export function isStringArray(v: unknown): v is string[] {
  return Array.isArray(v) && v.every((x) => typeof x === 'string');
}
