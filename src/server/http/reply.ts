import type { JsonObject, JsonValue } from '../util/json.js';

/** What a handler answers; http/respond.ts turns it into the service's HTTP shapes. */
export type Reply =
  /** 200 with the envelope (for some sys paths also data's members at the top: http/legacy-top-level.ts). */
  | { kind: 'data'; data: JsonObject; warnings?: string[] }
  /** 204, or 200 with the envelope when there are warnings. */
  | { kind: 'empty'; warnings?: string[] }
  /** 200 with the envelope's auth block (logins); `data` null unless the handler made a map. */
  | { kind: 'auth'; auth: JsonObject; warnings?: string[]; data?: JsonObject }
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

/**
 * sdk/framework/backend.go HandleRequest: body members the path's fields do not name are warned
 * about (`%v` of the sorted names), but only on a response the handler made: a handler that
 * answers nothing (a 204) stays a 204.
 */
export function withIgnoredWarning(reply: Reply, ignored: readonly string[]): Reply {
  if (ignored.length === 0 || reply.kind === 'raw') return reply;
  if (reply.kind === 'empty' && !reply.warnings?.length) return reply;
  const warning = `Endpoint ignored these unrecognized parameters: [${[...ignored].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0)).join(' ')}]`;
  return { ...reply, warnings: [...(reply.warnings ?? []), warning] };
}

/** The members of a body that are none of the path's fields. */
export function unknownMembers(body: Readonly<Record<string, unknown>>, fields: readonly string[]): string[] {
  return Object.keys(body).filter((k) => !fields.includes(k));
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

/**
 * An error the service's request handling gathers with hashicorp/go-multierror before answering
 * (vault/request_handling.go: a valid token the ACL refuses, an error a backend returns rather
 * than an error response), so its text is the multierror's.
 */
export function gathered(status: number, message: string): ApiError {
  return new ApiError(status, [`1 error occurred:\n\t* ${message}\n\n`]);
}

/** A valid token whose policies do not allow the request (vault/request_handling.go CheckToken). */
export function aclDenied(): ApiError {
  return gathered(403, 'permission denied');
}
