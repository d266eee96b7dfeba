import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { jwtIssuer, type JwtIssuer } from '../support/jwt.js';

/**
 * A CI provider's identity tokens, as the template tests need them: a key pair whose JWKS is
 * served on loopback (the service's JWT method is configured with its `jwks_url`, as with
 * GitHub's or GitLab's), and GitHub's token request endpoint (ACTIONS_ID_TOKEN_REQUEST_URL:
 * bearer request token in, `{ value }` out, for the audience asked). Every token issued is kept,
 * for the tests to check that none was printed.
 */
export interface OidcProvider {
  issuer: string;
  jwksUrl: string;
  /** A signed ID token of these claims, valid five minutes from now. */
  sign(claims: Record<string, unknown>): string;
  /** GitHub's request endpoint for a job: its URL and request token, answering with these claims. */
  githubRequest(claims: Record<string, unknown>): { url: string; token: string };
  issued: string[];
  close(): Promise<void>;
}

export async function startOidcProvider(name: string): Promise<OidcProvider> {
  const keys: JwtIssuer = jwtIssuer(`${name}-key`);
  const issuer = `https://${name}.example.com`;
  const issued: string[] = [];
  const jobs = new Map<string, Record<string, unknown>>();
  const sign = (claims: Record<string, unknown>): string => {
    const now = Math.floor(Date.now() / 1000);
    const token = keys.sign({ iss: issuer, iat: now, nbf: now, exp: now + 300, ...claims });
    issued.push(token);
    return token;
  };
  const server: Server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://x');
    const send = (status: number, body: unknown): void => void res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
    if (url.pathname === '/jwks') return send(200, keys.jwks);
    const job = jobs.get(/^bearer (.+)$/i.exec(req.headers.authorization ?? '')?.[1] ?? '');
    if (url.pathname !== '/token' || url.searchParams.get('api-version') !== '2.0') return send(404, { message: 'not found' });
    if (!job) return send(401, { message: 'bad request token' });
    const audience = url.searchParams.get('audience');
    send(200, { count: 1, value: sign({ ...job, ...(audience ? { aud: audience } : {}) }) });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    issuer,
    jwksUrl: `${base}/jwks`,
    sign,
    githubRequest: (claims) => {
      const token = `request-${Math.random().toString(36).slice(2)}`;
      jobs.set(token, claims);
      return { url: `${base}/token?api-version=2.0`, token };
    },
    issued,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
