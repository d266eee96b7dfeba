import { formatCount } from '../core/count.js';
import type { ClusterTarget } from '../core/cluster.js';
import { collectSecretTexts } from '../core/secret.js';
import { createClusterClient, type HttpClusterClient } from '../client/http-client.js';
import type { ExchangeReport } from '../client/types.js';
import { AUTO, ConcurrencyLimiter, type ConcurrencySetting, type LimiterReport } from '../client/limiter.js';
import type { RedactionSet } from '../core/redaction.js';
import type { ClientPool } from '../kinds/kind.js';
import type { ServerLimits } from './common-options.js';
import { CliError } from './errors.js';
import type { Interruption } from './interrupt.js';
import type { LogLevel } from './log-level.js';
import { requestLogLine } from './request-log.js';

/**
 * One client per cluster, each with its own concurrency limit (`--concurrency`). A cluster
 * whose credentials are a login logs in on its first request; release() revokes those tokens,
 * so every command that makes a pool releases it when it ends, failed or not.
 */
export class ClusterClientPool implements ClientPool {
  readonly #clients = new Map<string, HttpClusterClient>();
  readonly #limiters = new Map<string, ConcurrencyLimiter>();
  readonly #setting: ConcurrencySetting;
  readonly #limits: ServerLimits;
  readonly #redaction: RedactionSet | undefined;
  readonly #onExchange: ((exchange: ExchangeReport) => void) | undefined;
  #released: Promise<string[]> | undefined;

  constructor(
    readonly targets: ReadonlyMap<string, ClusterTarget>,
    concurrency: ConcurrencySetting = AUTO,
    limits: ServerLimits = {},
    /** The run's redaction set: a login's token joins it as soon as it is issued. */
    redaction?: RedactionSet,
    /** Told of every exchange of every client (the request log). */
    onExchange?: (exchange: ExchangeReport) => void,
  ) {
    this.#setting = concurrency;
    this.#limits = limits;
    this.#redaction = redaction;
    this.#onExchange = onExchange;
    redaction?.addAll(this.secretTexts());
  }

  get(cluster: string): HttpClusterClient {
    let c = this.#clients.get(cluster);
    if (!c) {
      const target = this.targets.get(cluster);
      if (!target) throw new CliError(`unknown cluster "${cluster}"`);
      const { deadline, retries } = this.#limits;
      const redaction = this.#redaction;
      c = createClusterClient(target, {
        limiter: this.#limiterOf(cluster),
        ...(deadline ? { deadline } : {}),
        ...(retries !== undefined ? { retries } : {}),
        ...(redaction ? { onSecret: (text: string) => void redaction.add(text) } : {}),
        ...(this.#onExchange ? { onExchange: this.#onExchange } : {}),
      });
      this.#clients.set(cluster, c);
    }
    return c;
  }

  get requestCount(): number {
    return [...this.#clients.values()].reduce((n, c) => n + c.requestCount, 0);
  }

  /**
   * How many changes an apply may run at once: the most in flight of each cluster that still
   * has changes to start, summed. Each cluster's limiter bounds what is in flight to it; the
   * applier only keeps them supplied. A cluster with nothing left to start (or nothing to
   * change) asks for nothing: its share would only queue more changes of the others.
   */
  applyConcurrency(clustersWithPending: Iterable<string>): number {
    // What each cluster's limiter asks for now (ConcurrencyLimiter.demand), read as each change
    // may start: not its whole bound (256 a cluster with the adaptive default), which queued
    // hundreds of changes in front of a limit of 16 on loopback.
    let sum = 0;
    for (const name of clustersWithPending) sum += this.#limiterOf(name).demand;
    return Math.max(1, sum);
  }

  /** Per cluster: ten clusters of a drift check each get the whole limit, not a tenth of it. */
  #limiterOf(cluster: string): ConcurrencyLimiter {
    let limiter = this.#limiters.get(cluster);
    if (!limiter) {
      limiter = new ConcurrencyLimiter(this.#setting);
      this.#limiters.set(cluster, limiter);
    }
    return limiter;
  }

  /** Per cluster that was sent requests: how its limit went. */
  reports(): Array<LimiterReport & { cluster: string; requests: number }> {
    return [...this.#clients.entries()].map(([cluster, c]) => ({ cluster, requests: c.requestCount, ...this.#limiterOf(cluster).report() }));
  }

  /** The clusters' credentials (tokens, JWTs, role_ids, secret_ids), to scrub from any message. */
  secretTexts(): Set<string> {
    return collectSecretTexts([...this.targets.values()].map((t) => t.auth));
  }

  /**
   * Revokes the token of each login this run made (`auth/token/revoke-self`), all clusters at
   * once. Returns a warning per token that could not be revoked (it lives until its TTL ends).
   */
  release(): Promise<string[]> {
    // Once: an interrupted command revokes from its signal handler, and its own end may come after.
    return (this.#released ??= this.#revokeAll());
  }

  async #revokeAll(): Promise<string[]> {
    const outcomes = await Promise.allSettled([...this.#clients.values()].map((c) => c.logout()));
    return outcomes.flatMap((o, i) => {
      if (o.status === 'fulfilled') return [];
      const cluster = [...this.#clients.keys()][i]!;
      const reason = o.reason instanceof Error ? o.reason.message : String(o.reason);
      return [`warning: the login token of ${cluster} could not be revoked; it lasts until its TTL ends: ${this.#redaction ? this.#redaction.redact(reason) : reason}`];
    });
  }
}

/**
 * Runs `body` with a pool of these clusters' clients and releases the pool when it ends, also
 * when it fails: the tokens of the run's logins are revoked, and a failed revocation is said.
 * At `logLevel` debug, every exchange is a line on stderr (the request log), redacted by `output`.
 */
export async function withClientPool<T>(
  targets: ReadonlyMap<string, ClusterTarget>,
  settings: { concurrency?: ConcurrencySetting; limits?: ServerLimits; logLevel: LogLevel; interruption?: Interruption | undefined },
  output: { redaction: RedactionSet; err(line: string): void },
  body: (pool: ClusterClientPool) => Promise<T>,
): Promise<T> {
  const logRequest = settings.logLevel === 'debug' ? (e: ExchangeReport) => output.err(requestLogLine(e)) : undefined;
  const pool = new ClusterClientPool(targets, settings.concurrency ?? AUTO, settings.limits ?? {}, output.redaction, logRequest);
  // A signal that abandons the command revokes the tokens too (its own output: the command's is muted then).
  const forget = settings.interruption?.onAbandon(async (_signal, unmuted) => {
    for (const warning of await pool.release()) unmuted.err(warning);
  });
  try {
    return await body(pool);
  } finally {
    forget?.();
    for (const warning of await pool.release()) output.err(warning);
  }
}

/**
 * The run's summary of each cluster's concurrency, for stderr (the plan's own output, on stdout,
 * stays as it is): `concurrency: default: auto settled at 112 (peak 128 in flight, 0 refused), 11,002 requests`.
 * Said with `--verbose`, or for a cluster that refused requests or let them time out (a quota
 * or an overloaded server is worth knowing); otherwise a run is quiet about it.
 */
export function concurrencySummary(pool: ClusterClientPool, verbose: boolean): string[] {
  return pool
    .reports()
    .filter((r) => r.requests > 0 && (verbose || r.dropped > 0))
    .map((r) => {
      const how = r.setting.kind === 'auto' ? `auto settled at ${r.limit}` : `fixed at ${r.limit}`;
      return `concurrency: ${r.cluster}: ${how} (peak ${r.peak} in flight, ${r.dropped} refused or timed out), ${formatCount(r.requests)} request${r.requests === 1 ? '' : 's'}`;
    });
}
