/**
 * The JWT and AppRole sequence sent to the emulator and to the real server alike
 * (test/real-server/ci-login.test.ts): every answer reduced to what must agree (status, errors,
 * the auth block without its random values, the data's field names).
 */
import { ciClaims, type JwtIssuer } from './jwt.js';

export type Step = [method: string, path: string, status: number, answer: unknown];

export async function loginSequence(addr: string, rootToken: string, issuer: JwtIssuer, stranger: JwtIssuer): Promise<Step[]> {
  const steps: Step[] = [];
  const send = async (method: string, path: string, body?: unknown, token: string | null = rootToken): Promise<Record<string, any> | null> => {
    const headers: Record<string, string> = { 'Content-Type': 'application/json' };
    if (token) headers['X-Vault-Token'] = token;
    const res = await fetch(`${addr}/v1/${path}`, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
    const text = await res.text();
    const parsed = text ? (JSON.parse(text) as Record<string, any>) : null;
    const auth = parsed?.['auth'] ? { ...parsed['auth'], client_token: typeof parsed['auth'].client_token, accessor: typeof parsed['auth'].accessor, entity_id: typeof parsed['auth'].entity_id } : undefined;
    steps.push([method, path, res.status, parsed?.['errors'] ?? auth ?? (parsed?.['data'] ? Object.keys(parsed['data']).sort() : null)]);
    return parsed;
  };
  const now = Math.floor(Date.now() / 1000);
  /** What lockstep does with a login's token: looks itself up (on a refusal), revokes itself; then it is gone. */
  const tokenLifecycle = async (token: string): Promise<void> => {
    const data = (await send('GET', 'auth/token/lookup-self', undefined, token))?.['data'] ?? {};
    const { policies, meta, display_name, path, renewable, type, expire_time, ttl } = data;
    steps.push(['token', 'lookup-self facts', 0, { policies, meta, display_name, path, renewable, type, expires: typeof expire_time, ttlAbout10m: ttl > 590 && ttl <= 600 }]);
    await send('POST', 'auth/token/revoke-self', {}, token);
    await send('GET', 'auth/token/lookup-self', undefined, token);
    await send('POST', 'auth/token/lookup', { token });
  };
  const login = (role: string | undefined, jwt: string | undefined) => send('POST', 'auth/jwt/login', { ...(role === undefined ? {} : { role }), ...(jwt === undefined ? {} : { jwt }) }, null);

  await send('POST', 'sys/auth/jwt', { type: 'jwt' });
  await send('POST', 'auth/jwt/config', {});
  await send('POST', 'auth/jwt/config', { jwt_validation_pubkeys: ['garbage'] });
  await send('POST', 'auth/jwt/config', { jwt_validation_pubkeys: [issuer.publicKeyPem], bound_issuer: 'https://token.actions.example.com' });
  await send('POST', 'auth/jwt/role/ci', { role_type: 'jwt', user_claim: 'sub' });
  await send('POST', 'auth/jwt/role/web', { user_claim: 'sub', bound_audiences: ['x'] });
  await send('POST', 'auth/jwt/role/ci', {
    role_type: 'jwt',
    bound_audiences: ['lockstep'],
    bound_claims: { repository: 'acme/infra' },
    user_claim: 'sub',
    token_policies: ['lockstep'],
    token_ttl: '10m',
  });
  await login(undefined, issuer.sign(ciClaims()));
  await login('nope', 'x');
  await login('ci', undefined);
  await login('ci', stranger.sign(ciClaims()));
  await login('ci', issuer.sign(ciClaims({ iat: now - 7200, nbf: now - 7200, exp: now - 3600 })));
  await login('ci', issuer.sign(ciClaims({ nbf: now + 3600, iat: now })));
  await login('ci', issuer.sign(ciClaims({ aud: 'other' })));
  await login('ci', issuer.sign(ciClaims({ aud: ['other', 'lockstep'] })));
  await login('ci', issuer.sign(ciClaims({ iss: 'https://elsewhere.example.com' })));
  await login('ci', issuer.sign(ciClaims({ repository: 'acme/other' })));
  await login('ci', issuer.sign(ciClaims({ repository: undefined })));
  await login('ci', issuer.sign(ciClaims({ sub: 42 })));
  const jwtLogin = await login('CI', issuer.sign(ciClaims()));
  await tokenLifecycle(jwtLogin?.['auth']?.client_token as string);

  await send('POST', 'sys/auth/approle', { type: 'approle' });
  await send('POST', 'auth/approle/role/deploy', { token_policies: 'lockstep', token_ttl: '10m' });
  const roleId = (await send('GET', 'auth/approle/role/deploy/role-id'))?.['data']?.role_id as string;
  const secretId = (await send('POST', 'auth/approle/role/deploy/secret-id', {}))?.['data']?.secret_id as string;
  await send('GET', 'auth/approle/role/nope/role-id');
  await send('POST', 'auth/approle/role/nope/secret-id', {});
  await send('POST', 'auth/approle/login', {}, null);
  await send('POST', 'auth/approle/login', { role_id: 'nope', secret_id: 'x' }, null);
  await send('POST', 'auth/approle/login', { role_id: roleId }, null);
  await send('POST', 'auth/approle/login', { role_id: roleId, secret_id: 'wrong' }, null);
  const appLogin = await send('POST', 'auth/approle/login', { role_id: roleId, secret_id: secretId }, null);
  await tokenLifecycle(appLogin?.['auth']?.client_token as string);
  await send('POST', 'auth/approle/role/rooty', { token_policies: 'root' });
  const rootyId = (await send('GET', 'auth/approle/role/rooty/role-id'))?.['data']?.role_id as string;
  const rootySecret = (await send('POST', 'auth/approle/role/rooty/secret-id', {}))?.['data']?.secret_id as string;
  await send('POST', 'auth/approle/login', { role_id: rootyId, secret_id: rootySecret }, null);
  return steps;
}
