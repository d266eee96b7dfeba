import type { JsonObject, JsonValue } from '../util/json.js';

/** What a handler answers; http/respond.ts turns it into the service's HTTP shapes. */
export type Reply =
  /** 200 with the envelope; `legacyTopLevel` also copies data's members to the top (sys/auth, sys/mounts). */
  | { kind: 'data'; data: JsonObject; warnings?: string[]; legacyTopLevel?: boolean }
  /** 204, or 200 with the envelope when there are warnings. */
  | { kind: 'empty'; warnings?: string[] }
  /** 200 with the envelope's auth block (logins). */
  | { kind: 'auth'; auth: JsonObject; warnings?: string[] }
  /** A body without the envelope (sys/health). */
  | { kind: 'raw'; status: number; body: JsonValue };

export function ok(data: JsonObject, warnings?: string[]): Reply {
  return { kind: 'data', data, warnings };
}

export function noContent(warnings?: string[]): Reply {
  return { kind: 'empty', warnings };
}

/**
 * A write's answer as the request framework completes it (sdk/framework/backend.go
 * HandleRequest): body members the endpoint does not take (`ignored`) are named in a warning
 * added after the handler's own, and only to a response the handler gave: a write that answers
 * nothing (204) says nothing of them.
 */
export function written(warnings: string[], ignored: string[]): Reply {
  if (warnings.length === 0) return noContent();
  if (ignored.length === 0) return noContent(warnings);
  return noContent([...warnings, `Endpoint ignored these unrecognized parameters: [${[...ignored].sort().join(' ')}]`]);
}

/** A LIST answer; no keys is a 404, as the service answers. */
export function keyList(keys: string[]): Reply {
  if (keys.length === 0) throw notFound();
  return ok({ keys });
}

/** An error answer: `{"errors": [...]}` with the status. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly errors: string[],
  ) {
    super(errors[0] ?? `status ${status}`);
  }
}

export function badRequest(message: string): ApiError {
  return new ApiError(400, [message]);
}

export function notFound(): ApiError {
  return new ApiError(404, []);
}

export function permissionDenied(): ApiError {
  return new ApiError(403, ['permission denied']);
}
