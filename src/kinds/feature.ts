import { ApiError } from '../client/errors.js';
import type { ApiResponse, ClusterClient, HttpMethod } from '../client/types.js';

/**
 * What a kind needs a server to serve (managed keys, automated snapshots and DR replication are
 * Vault Enterprise features; OpenBao and Vault Community have none of them), and a read that
 * tells whether it does.
 */
export interface ServerFeature {
  /** For messages: `managed keys`, `automated Raft snapshots`. */
  name: string;
  /**
   * A read that any server with the feature answers with something other than "unsupported
   * path" (an object, a 404 without errors, a 403). Absent: only the kind's reads can tell.
   */
  probe?: { method: Extract<HttpMethod, 'GET' | 'LIST'>; path: string };
}

/**
 * The server has no handler for a path lockstep read: it answered 404 with the request
 * framework's "unsupported path" (sdk/framework/backend.go HandleRequest returns
 * logical.ErrUnsupportedPath when no path of the backend matches; sys/ is a backend too). A
 * server without a feature answers its paths so (OpenBao: `GET sys/managed-keys/pkcs11` is
 * `404 {"errors":["1 error occurred:\n\t* unsupported path\n\n"]}`), where a server with it
 * answers a missing object with a 404 without errors.
 */
export class UnservedPathError extends Error {
  override readonly name = 'UnservedPathError';

  constructor(
    readonly cluster: string,
    readonly method: string,
    readonly path: string,
  ) {
    super(`${cluster}: ${method} ${path}: the server does not serve this path (404 unsupported path)`);
  }
}

/** The one test of "this server does not serve this path" (see UnservedPathError). */
export function isUnservedAnswer(status: number, errors: readonly string[]): boolean {
  // Bare, or wrapped by request handling in go-multierror's "1 error occurred:\n\t* ...".
  return status === 404 && errors.some((e) => /^(?:.*\n\t\* )?unsupported path\s*$/s.test(e));
}

/** The `errors` of an accepted error answer (a 404 on a read). */
function errorsOf(res: ApiResponse): string[] {
  const errors = res.body?.['errors'];
  return Array.isArray(errors) ? errors.filter((e): e is string => typeof e === 'string') : [];
}

/** An accepted answer's "unsupported path", as the error it stands for. */
export function refuseUnserved(client: ClusterClient, method: string, path: string, res: ApiResponse): void {
  if (isUnservedAnswer(res.status, errorsOf(res))) throw new UnservedPathError(client.cluster, method, path);
}

/** A thrown answer's "unsupported path", as the error it stands for; any other error as it is. */
export function classifyUnserved(err: unknown, method: string, path: string): unknown {
  return err instanceof ApiError && isUnservedAnswer(err.status, err.errors) ? new UnservedPathError(err.cluster, method, path) : err;
}

/**
 * Does the server serve `feature`? Only its "unsupported path" says no: any other answer, or
 * none (an unreachable server, a token without the right), is left to the kind's own reads,
 * which report it.
 */
export async function servesFeature(client: ClusterClient, feature: ServerFeature): Promise<boolean> {
  if (!feature.probe) return true;
  const { method, path } = feature.probe;
  try {
    const res = await client.request(method, path, { okStatuses: [404] });
    return !isUnservedAnswer(res.status, errorsOf(res));
  } catch {
    return true;
  }
}

/** The version the server reports in `sys/health` (no token needed), when it answers one. */
export async function reportedVersion(client: ClusterClient): Promise<string | undefined> {
  try {
    // Standbys, DR secondaries, sealed and uninitialised nodes answer with other codes (http/sys_health.go).
    const health = await client.request('GET', 'sys/health', { anonymous: true, okStatuses: [429, 472, 473, 501, 503] });
    const version = health.data?.['version'];
    return typeof version === 'string' && version !== '' ? version : undefined;
  } catch {
    return undefined;
  }
}
