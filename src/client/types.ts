import type { JsonObject } from '../core/json.js';

export type HttpMethod = 'GET' | 'LIST' | 'POST' | 'DELETE';

/** The body the service answers with (the Vault-style envelope), or an error body. */
export interface ApiResponse {
  status: number;
  /** `data` of the envelope; for answers without an envelope (operation-token attempts) the whole body. */
  data: JsonObject | null;
  /** `auth` of the envelope, if any. */
  auth: JsonObject | null;
  warnings: string[];
  /** The raw parsed body (null for 204). */
  body: JsonObject | null;
}

export interface RequestOptions {
  /** JSON body; Secret values inside are revealed only when serialising. */
  body?: unknown;
  /**
   * May the call be retried on 429/5xx/connection errors? Defaults: GET and LIST yes,
   * DELETE yes, POST no. Whole-object upserts (config, group, user writes) pass true.
   */
  idempotent?: boolean;
  /** Statuses that are answers rather than errors (e.g. 404 on a read). */
  okStatuses?: number[];
  /** Use no token (e.g. `sys/replication/dr/status`). */
  anonymous?: boolean;
  /** Per-request timeout in ms (defaults to the client's). */
  timeoutMs?: number;
}

/**
 * A client for one cluster. Paths are relative to the base URL and include the namespace
 * (they are Address paths). Errors are ApiError (server answered) or TransportError (it did not).
 */
export interface ClusterClient {
  readonly cluster: string;
  /** Base URL, safe to print (never carries the token). */
  readonly baseUrl: string;
  request(method: HttpMethod, path: string, opts?: RequestOptions): Promise<ApiResponse>;
  /** GET; `null` on 404. */
  read(path: string): Promise<JsonObject | null>;
  /** LIST (sent as GET ?list=true); `[]` on 404. */
  list(path: string): Promise<string[]>;
  /** POST. */
  write(path: string, body: unknown, opts?: { idempotent?: boolean }): Promise<ApiResponse>;
  /** DELETE; a 404 counts as done. */
  delete(path: string): Promise<void>;
  /** Requests sent so far (retries included), for benchmarks and tests. */
  readonly requestCount: number;
  /** How many requests may be in flight at once (`--concurrency`): what bulk readers pull at. */
  readonly concurrency: number;
}
