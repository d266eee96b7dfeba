import { formatCount } from '../core/count.js';
import type { ClusterTarget } from '../core/cluster.js';
import { collectSecretTexts } from '../core/secret.js';
import { createClusterClient } from '../client/http-client.js';
import { AUTO, ConcurrencyLimiter, type ConcurrencySetting, type LimiterReport } from '../client/limiter.js';
import type { ClusterClient } from '../client/types.js';
import type { ClientPool } from '../kinds/kind.js';
import type { ServerLimits } from './common-options.js';
import { CliError } from './errors.js';

/** One client per cluster, each with its own concurrency limit (`--concurrency`). */
export class ClusterClientPool implements ClientPool {
  readonly #clients = new Map<string, ClusterClient>();
  readonly #limiters = new Map<string, ConcurrencyLimiter>();
  readonly #setting: ConcurrencySetting;
  readonly #limits: ServerLimits;

  constructor(
    readonly targets: ReadonlyMap<string, ClusterTarget>,
    concurrency: ConcurrencySetting = AUTO,
    limits: ServerLimits = {},
  ) {
    this.#setting = concurrency;
    this.#limits = limits;
  }

  get(cluster: string): ClusterClient {
    let c = this.#clients.get(cluster);
    if (!c) {
      const target = this.targets.get(cluster);
      if (!target) throw new CliError(`unknown cluster "${cluster}"`);
      const { deadline, retries } = this.#limits;
      c = createClusterClient(target, { limiter: this.#limiterOf(cluster), ...(deadline ? { deadline } : {}), ...(retries !== undefined ? { retries } : {}) });
      this.#clients.set(cluster, c);
    }
    return c;
  }

  get requestCount(): number {
    return [...this.#clients.values()].reduce((n, c) => n + c.requestCount, 0);
  }

  /**
   * How many changes an apply may run at once: each cluster's most in flight, summed. Each
   * cluster's limiter bounds what is in flight to it; the applier only keeps them supplied.
   */
  applyConcurrency(): number {
    // What each cluster's limiter asks for now (ConcurrencyLimiter.demand), read as each change
    // may start: not its whole bound (256 a cluster with the adaptive default), which queued
    // hundreds of changes in front of a limit of 16 on loopback.
    let sum = 0;
    for (const name of this.targets.keys()) sum += this.#limiterOf(name).demand;
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

  /** The cluster tokens' texts, to scrub from any message. */
  secretTexts(): Set<string> {
    return collectSecretTexts([...this.targets.values()].map((t) => t.token));
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
