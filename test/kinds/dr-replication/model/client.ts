import { ApiError, TransportError } from '../../../../src/client/errors.js';
import { toApiResponse } from '../../../../src/client/response.js';
import type { ApiResponse, ClusterClient, HttpMethod, RequestOptions } from '../../../../src/client/types.js';
import type { JsonObject } from '../../../../src/core/json.js';
import { collectSecretTexts, revealDeep, scrub } from '../../../../src/core/secret.js';
import type { ClientPool } from '../../../../src/kinds/kind.js';
import { handle } from './world-endpoints.js';
import type { World } from './world-state.js';

/**
 * How one request fails, if it does:
 * - before:       never reaches the server (connection refused): no effect;
 * - after:        the server acts, the answer is lost (connection reset): uncertain;
 * - server-error: a 500 without effect (e.g. from a proxy): uncertain for the client;
 * - outage:       the cluster goes down from this request on (until the scenario recovers it).
 */
export type FaultKind = 'before' | 'after' | 'server-error' | 'outage';

export interface Fault {
  /** Index of the request (0-based, counted across clusters during one apply) that fails. */
  at: number;
  kind: FaultKind;
}

/** A fault aimed at the first request whose `cluster METHOD path` contains `match`. */
export interface TargetedFault {
  match: string;
  kind: FaultKind;
}

/** Counts requests during an apply and says which one fails. */
export class FaultInjector {
  #count = 0;
  #fault: Fault | TargetedFault | undefined;
  /** Whether the fault actually fired (the apply was long enough). */
  fired = false;

  arm(fault: Fault | TargetedFault | undefined): void {
    this.#count = 0;
    this.#fault = fault;
    this.fired = false;
  }

  disarm(): void {
    this.#fault = undefined;
  }

  next(request: string): FaultKind | undefined {
    const i = this.#count++;
    const f = this.#fault;
    if (!f || this.fired) return undefined;
    if ('at' in f ? f.at === i : request.includes(f.match)) {
      this.fired = true;
      return f.kind;
    }
    return undefined;
  }
}

/** A ClusterClient over the world, shaped like the HTTP client (errors, envelopes, scrubbing). */
export class WorldClient implements ClusterClient {
  readonly baseUrl: string;
  requestCount = 0;
  readonly concurrency = 4;

  constructor(
    readonly world: World,
    readonly cluster: string,
    readonly faults: FaultInjector,
  ) {
    this.baseUrl = `http://${cluster}.test/v1`;
  }

  async request(method: HttpMethod, path: string, opts: RequestOptions = {}): Promise<ApiResponse> {
    this.requestCount++;
    const line = `${this.cluster} ${method} ${path}`;
    this.world.requests.push(line);
    await Promise.resolve();
    const body = (revealDeep(opts.body ?? {}) ?? {}) as Record<string, unknown>;
    const secrets = collectSecretTexts(opts.body);
    const c = this.world.cluster(this.cluster);
    if (path.endsWith('operation-token/delete')) this.#deleteAttempted(body);
    const fault = this.faults.next(line);
    if (fault === 'outage') this.world.setReachable(this.cluster, false);
    if (!c.reachable || fault === 'before' || fault === 'outage') throw this.#transport(method, path, 'ECONNREFUSED', 'connection refused');
    if (fault === 'server-error') throw this.#api(method, path, 500, ['internal error'], secrets);
    const res = handle(this.world, this.cluster, method, path, body);
    if (fault === 'after') throw this.#transport(method, path, 'ECONNRESET', 'connection closed by the server');
    const ok = (res.status >= 200 && res.status < 300) || (opts.okStatuses?.includes(res.status) ?? false);
    if (!ok) throw this.#api(method, path, res.status, (res.body?.['errors'] as string[]) ?? [], secrets);
    if (res.generatedToken) this.world.generated.get(res.generatedToken)!.delivered = true;
    const parsed = toApiResponse(res.status, res.body as JsonObject | null);
    if ('problem' in parsed) throw new Error(parsed.problem);
    return parsed;
  }

  async read(path: string): Promise<JsonObject | null> {
    const res = await this.request('GET', path, { okStatuses: [404] });
    return res.status === 404 ? null : (res.data ?? {});
  }

  async list(path: string): Promise<string[]> {
    const res = await this.request('LIST', path, { okStatuses: [404] });
    return res.status === 404 ? [] : ((res.data?.['keys'] as string[]) ?? []);
  }

  write(path: string, body: unknown, opts: { idempotent?: boolean } = {}): Promise<ApiResponse> {
    return this.request('POST', path, { body, idempotent: opts.idempotent });
  }

  async delete(path: string): Promise<void> {
    await this.request('DELETE', path, { okStatuses: [404] });
  }

  #deleteAttempted(body: Record<string, unknown>): void {
    const g = this.world.generated.get(String(body['dr_operation_token'] ?? ''));
    if (g) g.deleteAttempted = true;
  }

  #transport(method: string, path: string, code: string, reason: string): TransportError {
    return new TransportError({
      cluster: this.cluster,
      method,
      url: `${this.baseUrl}/${path}`,
      code,
      attempts: 1,
      message: `cannot reach ${this.cluster} at ${this.baseUrl}: ${reason} (${method} ${path})`,
    });
  }

  #api(method: string, path: string, status: number, errors: string[], secrets: Set<string>): ApiError {
    const clean = errors.map((e) => scrub(e, secrets));
    const message = scrub(`${method} ${this.baseUrl}/${path}: ${status}: ${clean.join('; ')}`, secrets);
    return new ApiError({ cluster: this.cluster, method, url: `${this.baseUrl}/${path}`, status, errors: clean, message });
  }
}

export class WorldPool implements ClientPool {
  readonly #clients = new Map<string, WorldClient>();

  constructor(
    readonly world: World,
    readonly faults: FaultInjector = new FaultInjector(),
  ) {}

  get(cluster: string): WorldClient {
    let c = this.#clients.get(cluster);
    if (!c) {
      c = new WorldClient(this.world, cluster, this.faults);
      this.#clients.set(cluster, c);
    }
    return c;
  }
}
