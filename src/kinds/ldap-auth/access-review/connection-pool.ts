import { connectFirst, connectOne, type LdapConnection, type LdapTimeouts, type LdapTlsSettings } from '../../../adapters/ldap/index.js';
import type { LimitAlgorithm } from '../../../client/adaptive-limit.js';

/**
 * A few LDAP connections bound alike, each request on the one with the fewest in flight: one
 * connection is read and parsed one message at a time on both ends, several let the directory
 * answer in parallel. Requests in flight are bounded by `limit` (the review's adaptive limit,
 * fed each answer's round trip); the rest wait their turn. A paged search holds its connection's
 * paging (a directory keeps one paged-results cookie per connection: slapd answers a second
 * "paged results cookie is invalid"). The first URL that answers serves all.
 */
export class ConnectionPool {
  private readonly inFlight: number[];
  private readonly paging: boolean[];
  private total = 0;
  private readonly waiting: Array<() => void> = [];
  /** Once closed, no request starts: those waiting and those to come fail. */
  private closed = false;

  private constructor(
    private readonly connections: readonly LdapConnection[],
    private readonly limit: LimitAlgorithm,
  ) {
    this.inFlight = connections.map(() => 0);
    this.paging = connections.map(() => false);
  }

  /**
   * `size` connections, each bound with `bind` (binddn/bindpass, or anonymously). `signal`
   * aborts the opening, and closes the pool once open (its requests in flight then fail).
   */
  static async open(
    size: number,
    limit: LimitAlgorithm,
    url: string,
    tls: LdapTlsSettings,
    timeouts: LdapTimeouts,
    bind: (c: LdapConnection) => Promise<void>,
    signal?: AbortSignal,
  ): Promise<ConnectionPool> {
    const first = await connectFirst(url, tls, timeouts, signal);
    const connections = [first];
    const closeAll = () => Promise.all(connections.map((c) => c.close()));
    const onAbort = () => void closeAll();
    signal?.addEventListener('abort', onAbort, { once: true });
    try {
      // Aborted while the first connection was made: no bind sent.
      signal?.throwIfAborted();
      await bind(first);
      const rest = await Promise.allSettled(Array.from({ length: size - 1 }, () => connectOne(first.url, tls, timeouts, signal)));
      for (const r of rest) if (r.status === 'fulfilled') connections.push(r.value);
      const failed = rest.find((r): r is PromiseRejectedResult => r.status === 'rejected');
      if (failed) throw failed.reason;
      await Promise.all(connections.slice(1).map(bind));
      signal?.throwIfAborted();
    } catch (err) {
      await closeAll();
      throw err;
    } finally {
      signal?.removeEventListener('abort', onAbort);
    }
    const pool = new ConnectionPool(connections, limit);
    signal?.addEventListener('abort', () => void pool.close(), { once: true });
    return pool;
  }

  /** Runs `fn` on the connection with the fewest requests in flight (`paged`: one not paging), once the limit lets it. */
  async use<T>(fn: (c: LdapConnection) => Promise<T>, paged = false): Promise<T> {
    let at: number | undefined;
    while (this.closed || this.total >= Math.max(1, this.limit.limit) || (at = this.pick(paged)) === undefined) {
      if (this.closed) throw new Error('the connections to the LDAP server were closed');
      await new Promise<void>((wake) => this.waiting.push(wake));
    }
    this.inFlight[at]!++;
    if (paged) this.paging[at] = true;
    const inFlight = ++this.total;
    const startedAt = performance.now();
    try {
      return await fn(this.connections[at]!);
    } finally {
      this.inFlight[at]!--;
      if (paged) this.paging[at] = false;
      this.total--;
      this.limit.onSample({ startedAt, endedAt: performance.now(), inFlight, outcome: 'ok' });
      // Every waiter checks again: the limit may have grown, a paging connection may be free.
      for (const wake of this.waiting.splice(0)) wake();
    }
  }

  private pick(paged: boolean): number | undefined {
    let at: number | undefined;
    for (let i = 0; i < this.connections.length; i++) {
      if (paged && this.paging[i]) continue;
      if (at === undefined || this.inFlight[i]! < this.inFlight[at]!) at = i;
    }
    return at;
  }

  async close(): Promise<void> {
    this.closed = true;
    // Those waiting for a connection look again, and fail.
    for (const wake of this.waiting.splice(0)) wake();
    await Promise.all(this.connections.map((c) => c.close()));
  }
}
