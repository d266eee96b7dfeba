import type { JsonObject } from '../core/json.js';

/** PATCH is a JSON merge patch (RFC 7396), sent as `application/merge-patch+json` as the service requires. */
export type HttpMethod = 'GET' | 'LIST' | 'POST' | 'PATCH' | 'DELETE';

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

/**
 * Where a request goes, relative to the base URL (namespace first). A string is split on "/"
 * (routes written in code, mounts, namespaces); an object's segments (an Address) are used as
 * they are. Each segment is checked and percent-encoded exactly once by the client: a "?" or "#"
 * in a name is part of the name, never the start of a query.
 */
/** A path as text, or as segments (an Address: its `path`, the segments joined, is kept once made). */
export type RequestPath = string | { readonly segments: readonly string[]; readonly path?: string };

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
  /** Query parameters, encoded by the client (the path never carries a query). */
  query?: Readonly<Record<string, string>>;
}

/**
 * A client for one cluster. Paths are relative to the base URL and include the namespace
 * (see RequestPath). Errors are ApiError (server answered), TransportError (it did not) or
 * RefusedRequestError (a path the service cannot address: nothing sent).
 */
export interface ClusterClient {
  readonly cluster: string;
  /** Base URL, safe to print (never carries the token). */
  readonly baseUrl: string;
  request(method: HttpMethod, path: RequestPath, opts?: RequestOptions): Promise<ApiResponse>;
  /** GET of an object: its `data` (an object, else an error); `null` on 404. */
  read(path: RequestPath): Promise<JsonObject | null>;
  /** POST. */
  write(path: RequestPath, body: unknown, opts?: { idempotent?: boolean }): Promise<ApiResponse>;
  /** DELETE; a 404 counts as done. */
  delete(path: RequestPath): Promise<void>;
  /** Requests sent so far (retries included), for benchmarks and tests. */
  readonly requestCount: number;
  /** How many requests a bulk reader should keep asking for now (follows the adaptive limit; read it each time). */
  readonly concurrency: number;
}

/**
 * One exchange with a server (one attempt of a request), as the request log (`--log-level
 * debug`) prints it: never a header or a body, so never a token or a secret sent in one.
 */
export interface ExchangeReport {
  cluster: string;
  method: HttpMethod;
  /** As the caller named it, namespace first: the segments joined with "/", unencoded. */
  path: string;
  query: Readonly<Record<string, string>> | undefined;
  /** 1 for the first attempt, 2 for the first retry... */
  attempt: number;
  elapsedMs: number;
  outcome: ExchangeReportOutcome;
}

type ExchangeReportOutcome =
  /** The server answered with this status (accepted or not). */
  | { kind: 'answer'; status: number }
  /** No answer: the connection failed or the time ran out; `code` says how (ECONNREFUSED...). */
  | { kind: 'no-answer'; code: string };
