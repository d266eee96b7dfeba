/**
 * A loopback fake of the KMS JSON 1.1 API (X-Amz-Target: TrentService.*), with SigV4
 * verification against configured credentials. See SPEC.md.
 */
import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { closeServer, listenOnLoopback, parseJsonBody, readBody, sendJson } from '../common/http.js';
import { KeyStore, type FakeAwsKey, type FakeKeyUsage } from './keys.js';
import { KmsError, OPERATIONS } from './operations.js';
import { verifySigV4 } from './sigv4.js';

export interface FakeAwsKmsOptions {
  /** Accepted access key id → secret; default one pair, see DEFAULT_CREDENTIALS. */
  credentials?: Record<string, string>;
  region?: string;
  account?: string;
}

export const DEFAULT_CREDENTIALS = { accessKeyId: 'AKIAFAKEKMSTEST00001', secretAccessKey: 'fake-kms-secret-access-key-0001' };

export interface SeedKey {
  keySpec: string;
  keyUsage?: FakeKeyUsage;
  keyState?: FakeAwsKey['keyState'];
  /** alias/NAME to point at the key. */
  alias?: string;
  description?: string;
}

export interface FakeAwsKms {
  /** http://127.0.0.1:PORT — the key configuration's `endpoint`. */
  endpoint: string;
  region: string;
  store: KeyStore;
  /** Every authenticated call: operation and parsed body. */
  calls: Array<{ operation: string; body: Record<string, unknown> }>;
  seedKey(seed: SeedKey): FakeAwsKey;
  stop(): Promise<void>;
}

export async function startFakeAwsKms(opts: FakeAwsKmsOptions = {}): Promise<FakeAwsKms> {
  const region = opts.region ?? 'us-east-1';
  const credentials = opts.credentials ?? { [DEFAULT_CREDENTIALS.accessKeyId]: DEFAULT_CREDENTIALS.secretAccessKey };
  const store = new KeyStore(region, opts.account ?? '111122223333');
  const calls: FakeAwsKms['calls'] = [];

  const server = createServer((req, res) => {
    void readBody(req).then((body) => handle(req, res, body));
  });

  function handle(req: IncomingMessage, res: ServerResponse, body: Buffer): void {
    try {
      const target = String(req.headers['x-amz-target'] ?? '');
      const operation = target.startsWith('TrentService.') ? target.slice('TrentService.'.length) : '';
      const fn = OPERATIONS[operation];
      if (req.method !== 'POST' || !fn) throw new KmsError('UnknownOperationException', '');
      const auth = verifySigV4({ method: req.method, path: req.url ?? '/', headers: req.headers, body }, (id) => credentials[id], { region, service: 'kms' });
      if (!auth.ok) throw new KmsError(auth.error, auth.message);
      const parsed = parseJsonBody(body);
      calls.push({ operation, body: parsed });
      send(res, 200, fn(store, parsed));
    } catch (err) {
      const e = err instanceof KmsError ? err : new KmsError('KMSInternalException', String(err));
      res.setHeader('x-amzn-ErrorType', e.type);
      send(res, e.type === 'KMSInternalException' ? 500 : 400, { __type: e.type, message: e.message });
    }
  }

  const port = await listenOnLoopback(server);
  return {
    endpoint: `http://127.0.0.1:${port}`,
    region,
    store,
    calls,
    seedKey(seed) {
      const key = store.create({ keySpec: seed.keySpec, keyUsage: seed.keyUsage ?? 'SIGN_VERIFY', keyState: seed.keyState, description: seed.description });
      if (seed.alias) store.aliases.set(seed.alias, key.keyId);
      return key;
    },
    stop: () => closeServer(server),
  };
}

function send(res: ServerResponse, status: number, body: unknown): void {
  sendJson(res, status, body, { 'content-type': 'application/x-amz-json-1.1', 'x-amzn-RequestId': randomUUID() });
}
