import type { ClusterTarget } from '../core/cluster.js';
import { collectSecretTexts } from '../core/secret.js';
import type { RunDeadline } from '../client/deadline.js';
import { createClusterClient } from '../client/http-client.js';
import { ConcurrencyLimiter } from '../client/limiter.js';
import type { ClusterClient } from '../client/types.js';
import type { ClientPool } from '../kinds/kind.js';
import { CliError } from './errors.js';

/** One client per cluster, all sharing one concurrency bound (`--concurrency`). */
export class ClusterClientPool implements ClientPool {
  readonly #clients = new Map<string, ClusterClient>();
  readonly #limiter: ConcurrencyLimiter;
  readonly #deadline: RunDeadline | undefined;

  constructor(
    readonly targets: ReadonlyMap<string, ClusterTarget>,
    concurrency: number,
    deadline?: RunDeadline,
  ) {
    this.#limiter = new ConcurrencyLimiter(concurrency);
    this.#deadline = deadline;
  }

  get(cluster: string): ClusterClient {
    let c = this.#clients.get(cluster);
    if (!c) {
      const target = this.targets.get(cluster);
      if (!target) throw new CliError(`unknown cluster "${cluster}"`);
      c = createClusterClient(target, { limiter: this.#limiter, ...(this.#deadline ? { deadline: this.#deadline } : {}) });
      this.#clients.set(cluster, c);
    }
    return c;
  }

  get requestCount(): number {
    return [...this.#clients.values()].reduce((n, c) => n + c.requestCount, 0);
  }

  /** The cluster tokens' texts, to scrub from any message. */
  secretTexts(): Set<string> {
    return collectSecretTexts([...this.targets.values()].map((t) => t.token));
  }
}

export function parseConcurrency(v: string | undefined): number {
  const n = v === undefined ? 16 : Number(v);
  if (!Number.isInteger(n) || n < 1 || n > 1024) throw new CliError(`--concurrency must be a whole number from 1 to 1024`);
  return n;
}
