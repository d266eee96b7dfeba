/** A loopback fake of the Cloud KMS REST API (v1) and of Google's OAuth token endpoint. See SPEC.md. */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { closeServer, listenOnLoopback, parseJsonBody, readBody, sendJson } from '../common/http.js';
import { FakeAuth, type ServiceAccountFile } from './auth.js';
import type { AlgorithmName, PurposeName, StateName } from './enums.js';
import { KmsStore, type FakeCryptoKey } from './keys.js';
import { KmsRest } from './rest.js';

export interface FakeGcpKms {
  /** http://127.0.0.1:PORT — KeyBackendOptions.gcp.endpoint. */
  endpoint: string;
  auth: FakeAuth;
  store: KmsStore;
  /** Authenticated calls: method, path. */
  calls: Array<{ method: string; path: string }>;
  /** A service account known to the fake; write the result to a file for `credentials`. */
  addServiceAccount(email?: string, projectId?: string): ServiceAccountFile;
  addKeyRing(project: string, location: string, keyRing: string): string;
  seedKey(seed: { keyRing: string; id: string; purpose?: PurposeName; algorithm: AlgorithmName; state?: StateName; versions?: number }): FakeCryptoKey;
  stop(): Promise<void>;
}

export async function startFakeGcpKms(): Promise<FakeGcpKms> {
  const auth = new FakeAuth();
  const store = new KmsStore();
  const calls: FakeGcpKms['calls'] = [];
  let endpoint = '';

  const server = createServer((req, res) => {
    void readBody(req).then((raw) => handle(req, res, raw));
  });

  function handle(req: IncomingMessage, res: ServerResponse, raw: Buffer): void {
    const url = new URL(req.url ?? '/', endpoint);
    if (req.method === 'POST' && url.pathname === '/token') {
      const result = auth.exchange(new URLSearchParams(raw.toString('utf8')));
      return send(res, result.status, result.body);
    }
    const who = auth.check(req.headers.authorization);
    if (!who.ok) return send(res, 401, { error: { code: 401, message: who.message, status: 'UNAUTHENTICATED' } });
    calls.push({ method: req.method ?? '', path: url.pathname });
    let body: Record<string, unknown>;
    try {
      body = parseJsonBody(raw);
    } catch {
      return send(res, 400, { error: { code: 400, message: 'Invalid JSON payload received.', status: 'INVALID_ARGUMENT' } });
    }
    const intEnums = (url.searchParams.get('$alt') ?? '').includes('enum-encoding=int');
    const result = new KmsRest(store, intEnums).handle(req.method ?? 'GET', url.pathname, url.searchParams, body);
    send(res, result.status, result.body);
  }

  endpoint = `http://127.0.0.1:${await listenOnLoopback(server)}`;
  return {
    endpoint,
    auth,
    store,
    calls,
    addServiceAccount: (email = 'lockstep@fake-project.iam.gserviceaccount.com', projectId = 'fake-project') =>
      auth.addServiceAccount(email, projectId, `${endpoint}/token`),
    addKeyRing: (project, location, keyRing) => {
      const name = `projects/${project}/locations/${location}/keyRings/${keyRing}`;
      store.keyRings.add(name);
      return name;
    },
    seedKey: (seed) => store.createKey(`${seed.keyRing}/cryptoKeys/${seed.id}`, seed.purpose ?? 'ASYMMETRIC_SIGN', seed.algorithm, { versions: seed.versions, state: seed.state }),
    stop: () => closeServer(server),
  };
}

function send(res: ServerResponse, status: number, body: unknown): void {
  sendJson(res, status, body, { 'content-type': 'application/json; charset=UTF-8' });
}
