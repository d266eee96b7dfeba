/**
 * A loopback HTTPS fake of Key Vault (keys) and of the identity platform's token endpoint.
 * One server answers both: requests whose Host is `<vault>.<vaultDomain>` go to that vault,
 * the others to the identity side. See SPEC.md.
 */
import { createServer, type Server } from 'node:https';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { makeTempDir, removeDir } from '../../support/process.js';
import { closeServer, listenOnLoopback, parseJsonBody, readBody, sendJson } from '../common/http.js';
import { IdentityService } from './identity.js';
import { VaultStore, type FakeVaultKey, type KeySeed } from './keys.js';
import { makePki } from './pki.js';
import { handleVault } from './vault.js';

export interface FakeKeyVaultOptions {
  tenantId?: string;
  /** Registered applications: client id → secret. */
  clients?: Record<string, string>;
  /** Hosts are `<vault>.<vaultDomain>`; default `vault.localhost` (loopback by RFC 6761). */
  vaultDomain?: string;
}

export const DEFAULT_CLIENT = { tenantId: '7f3c2a10-0000-4000-8000-00000000fa4e', clientId: 'a1b2c3d4-0000-4000-8000-0000000c11e7', clientSecret: 'fake-vault-client-secret~0001' };

export interface FakeKeyVault {
  port: number;
  /** The key configuration's `resource`: `vault.localhost:PORT`. */
  resource: string;
  /** KeyBackendOptions.azure.authorityHost: `https://localhost:PORT`. */
  authorityHost: string;
  /** PEM of the CA that signed the server certificate (KeyBackendOptions.azure.caCerts). */
  caCert: string;
  tenantId: string;
  identity: IdentityService;
  store: VaultStore;
  /** Vault requests: method, path, whether they carried a valid token. */
  requests: Array<{ method: string; path: string; authorized: boolean }>;
  seedKey(seed: Omit<KeySeed, 'vault'> & { vault?: string }): FakeVaultKey;
  stop(): Promise<void>;
}

export async function startFakeKeyVault(opts: FakeKeyVaultOptions = {}): Promise<FakeKeyVault> {
  const vaultDomain = opts.vaultDomain ?? 'vault.localhost';
  const tenantId = opts.tenantId ?? DEFAULT_CLIENT.tenantId;
  const dir = await makeTempDir('fake-keyvault');
  const pki = await makePki(dir, vaultDomain);
  const identity = new IdentityService(tenantId);
  for (const [id, secret] of Object.entries(opts.clients ?? { [DEFAULT_CLIENT.clientId]: DEFAULT_CLIENT.clientSecret })) identity.clients.set(id, secret);
  const store = new VaultStore();
  const requests: FakeKeyVault['requests'] = [];
  let port = 0;

  const server: Server = createServer({ cert: pki.cert, key: pki.key }, (req, res) => {
    void readBody(req).then((body) => {
      const host = String(req.headers.host ?? '').replace(/:\d+$/, '');
      const path = (req.url ?? '/').split('?')[0] ?? '/';
      if (host.endsWith(`.${vaultDomain}`)) {
        vaultRequest(req, res, host.slice(0, -vaultDomain.length - 1), path, body);
      } else {
        identityRequest(req, res, path, body);
      }
    });
  });

  function identityRequest(req: IncomingMessage, res: ServerResponse, path: string, body: Buffer): void {
    const base = `https://localhost:${port}`;
    if (req.method === 'GET' && path === `/${tenantId}/v2.0/.well-known/openid-configuration`) return send(res, 200, identity.metadata(base));
    if (req.method === 'POST' && path === `/${tenantId}/oauth2/v2.0/token`) {
      const result = identity.token(new URLSearchParams(body.toString('utf8')));
      return send(res, result.status, result.body);
    }
    if (/\/(oauth2\/v2\.0\/token|v2\.0\/\.well-known\/openid-configuration)$/.test(path)) {
      return send(res, 400, { error: 'invalid_request', error_description: `AADSTS90002: Tenant '${path.split('/')[1]}' not found.` });
    }
    send(res, 404, { error: 'not_found' });
  }

  function vaultRequest(req: IncomingMessage, res: ServerResponse, vault: string, path: string, body: Buffer): void {
    const token = /^Bearer (.+)$/.exec(String(req.headers.authorization ?? ''))?.[1];
    const authorized = token !== undefined && identity.isValid(token);
    requests.push({ method: req.method ?? '', path, authorized });
    if (!authorized) {
      // The challenge names the tenant's authority and the resource to ask a token for.
      res.setHeader('WWW-Authenticate', `Bearer authorization="https://localhost:${port}/${tenantId}", resource="https://${vaultDomain}"`);
      return send(res, 401, { error: { code: 'Unauthorized', message: token ? 'AKV10000: Request is missing a valid Bearer token.' : 'AKV10000: Request is missing a Bearer or PoP token.' } });
    }
    let parsed: Record<string, unknown>;
    try {
      parsed = parseJsonBody(body);
    } catch {
      return send(res, 400, { error: { code: 'BadParameter', message: 'The request body is not valid JSON.' } });
    }
    const result = handleVault(store, vault, `https://${vault}.${vaultDomain}:${port}`, req.method ?? 'GET', path, parsed);
    send(res, result.status, result.body);
  }

  port = await listenOnLoopback(server);
  return {
    port,
    resource: `${vaultDomain}:${port}`,
    authorityHost: `https://localhost:${port}`,
    caCert: pki.caCert,
    tenantId,
    identity,
    store,
    requests,
    seedKey: (seed) => store.add({ vault: 'lockstep', ...seed }),
    stop: async () => {
      await closeServer(server);
      await removeDir(dir);
    },
  };
}

function send(res: ServerResponse, status: number, body: unknown): void {
  sendJson(res, status, body, { 'content-type': 'application/json; charset=utf-8' });
}
