import { connectFirst, connectOne, type LdapConnection, type LdapTimeouts, type LdapTlsSettings } from '../../../adapters/ldap/index.js';

/**
 * A few LDAP connections bound alike, each request on the one with the fewest in flight: one
 * connection is read and parsed one message at a time on both ends, several let the directory
 * answer in parallel. The first URL that answers serves them all.
 */
export class ConnectionPool {
  private readonly inFlight: number[];

  private constructor(private readonly connections: readonly LdapConnection[]) {
    this.inFlight = connections.map(() => 0);
  }

  /** `size` connections, each bound with `bind` (binddn/bindpass, or anonymously). */
  static async open(size: number, url: string, tls: LdapTlsSettings, timeouts: LdapTimeouts, bind: (c: LdapConnection) => Promise<void>): Promise<ConnectionPool> {
    const first = await connectFirst(url, tls, timeouts);
    const connections = [first];
    try {
      await bind(first);
      const rest = await Promise.allSettled(Array.from({ length: size - 1 }, () => connectOne(first.url, tls, timeouts)));
      for (const r of rest) if (r.status === 'fulfilled') connections.push(r.value);
      const failed = rest.find((r): r is PromiseRejectedResult => r.status === 'rejected');
      if (failed) throw failed.reason;
      await Promise.all(connections.slice(1).map(bind));
    } catch (err) {
      await Promise.all(connections.map((c) => c.close()));
      throw err;
    }
    return new ConnectionPool(connections);
  }

  /** Runs `fn` on the connection with the fewest requests in flight. */
  async use<T>(fn: (c: LdapConnection) => Promise<T>): Promise<T> {
    let at = 0;
    for (let i = 1; i < this.inFlight.length; i++) if (this.inFlight[i]! < this.inFlight[at]!) at = i;
    this.inFlight[at]!++;
    try {
      return await fn(this.connections[at]!);
    } finally {
      this.inFlight[at]!--;
    }
  }

  async close(): Promise<void> {
    await Promise.all(this.connections.map((c) => c.close()));
  }
}
