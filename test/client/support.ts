import { createClusterClient, type ClientOptions, type HttpClusterClient } from '../../src/client/http-client.js';
import { ConcurrencyLimiter } from '../../src/client/limiter.js';
import { Secret } from '../../src/core/secret.js';

export const TOKEN = 'hvs.CANARY-token-5d1e0c';

const open: HttpClusterClient[] = [];

/** A client for `east` at `baseUrl` with fast backoff; closed by closeClients(). */
export function client(baseUrl: string, opts: Partial<ClientOptions> & { caCert?: string; insecureSkipVerify?: boolean } = {}): HttpClusterClient {
  const { caCert, insecureSkipVerify, ...rest } = opts;
  const c = createClusterClient(
    { name: 'east', address: baseUrl, auth: { method: 'token' as const, token: new Secret(TOKEN, 'env:EAST_TOKEN') }, authSource: 'test', caCert, insecureSkipVerify: insecureSkipVerify ?? false },
    { limiter: new ConcurrencyLimiter(4), backoff: { baseMs: 1, capMs: 5 }, ...rest },
  );
  open.push(c);
  return c;
}

export function closeClients(): void {
  for (const c of open.splice(0)) c.close();
}

/** Runs `fn` and returns what it threw (fails if it did not throw). */
export async function caught(fn: () => Promise<unknown>): Promise<Error> {
  try {
    await fn();
  } catch (err) {
    return err as Error;
  }
  throw new Error('expected a rejection');
}
