import type { Caller } from '../auth/token-store.js';
import type { ClusterServices } from '../services.js';
import type { MountEntry } from '../sys/mount-table.js';
import type { JsonObject } from '../util/json.js';

/** What a request asks of a path, as the service's logical layer names it (PATCH: a JSON merge patch). */
export type Operation = 'read' | 'list' | 'update' | 'patch' | 'delete';

/** A request as handlers see it: routed, authorised, body parsed. */
export interface ApiRequest {
  readonly cluster: ClusterServices;
  readonly operation: Operation;
  /** The canonical path (http/request-path.ts): after /v1/, decoded, the namespace header's namespace in front. */
  readonly path: string;
  readonly params: Record<string, string>;
  readonly query: URLSearchParams;
  /** The JSON body of a write or patch; `{}` otherwise. */
  readonly body: JsonObject;
  /** The authenticated token; undefined on public routes called without one. */
  readonly caller: Caller | undefined;
  /** Client IP address (IPv4-mapped IPv6 addresses given as IPv4). */
  readonly clientAddress: string;
  /** The auth mount the request is routed to, for `auth/<mount>/...` paths. */
  readonly mount?: MountEntry;
}
