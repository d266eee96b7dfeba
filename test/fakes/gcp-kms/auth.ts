/**
 * Google-style auth for the fake: service accounts whose keys the fake generated, Bearer
 * tokens that are either self-signed JWTs from such an account (what google-auth-library sends
 * for service accounts) or access tokens from the fake's OAuth token endpoint (JWT-bearer
 * grant), and static tokens tests may register.
 */
import { generateKeyPairSync, randomBytes, verify, type KeyObject } from 'node:crypto';

export interface ServiceAccountFile {
  type: 'service_account';
  project_id: string;
  private_key_id: string;
  private_key: string;
  client_email: string;
  client_id: string;
  token_uri: string;
}

export class FakeAuth {
  private readonly accounts = new Map<string, KeyObject>();
  private readonly tokens = new Set<string>();

  /** A new service account; the returned JSON is a credentials file's contents. */
  addServiceAccount(email: string, projectId: string, tokenUri: string): ServiceAccountFile {
    const { privateKey, publicKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
    this.accounts.set(email, publicKey);
    return {
      type: 'service_account',
      project_id: projectId,
      private_key_id: randomBytes(20).toString('hex'),
      private_key: privateKey.export({ format: 'pem', type: 'pkcs8' }).toString(),
      client_email: email,
      client_id: String(BigInt('0x' + randomBytes(8).toString('hex'))),
      token_uri: tokenUri,
    };
  }

  addStaticToken(token: string): void {
    this.tokens.add(token);
  }

  /** Who a bearer token belongs to, or why it is refused. */
  check(authorization: string | undefined): { ok: true; who: string } | { ok: false; message: string } {
    const token = /^Bearer (.+)$/.exec(authorization ?? '')?.[1];
    if (!token) return { ok: false, message: 'Request is missing required authentication credential. Expected OAuth 2 access token, login cookie or other valid authentication credential.' };
    if (this.tokens.has(token)) return { ok: true, who: 'token' };
    const jwt = this.verifyJwt(token);
    return jwt.ok ? { ok: true, who: jwt.email } : { ok: false, message: 'Request had invalid authentication credentials. Expected OAuth 2 access token, login cookie or other valid authentication credential.' };
  }

  /** The JWT-bearer grant of the token endpoint. */
  exchange(form: URLSearchParams): { status: number; body: Record<string, unknown> } {
    if (form.get('grant_type') !== 'urn:ietf:params:oauth:grant-type:jwt-bearer') return { status: 400, body: { error: 'unsupported_grant_type', error_description: 'Invalid grant_type.' } };
    const jwt = this.verifyJwt(form.get('assertion') ?? '');
    if (!jwt.ok) return { status: 400, body: { error: 'invalid_grant', error_description: 'Invalid JWT Signature.' } };
    const token = `ya29.fake-${randomBytes(24).toString('base64url')}`;
    this.tokens.add(token);
    return { status: 200, body: { access_token: token, expires_in: 3599, token_type: 'Bearer' } };
  }

  private verifyJwt(token: string): { ok: true; email: string } | { ok: false } {
    const [h, p, s] = token.split('.');
    if (!h || !p || !s) return { ok: false };
    try {
      const header = JSON.parse(Buffer.from(h, 'base64url').toString()) as { alg?: string };
      const payload = JSON.parse(Buffer.from(p, 'base64url').toString()) as { iss?: string; exp?: number };
      const key = this.accounts.get(payload.iss ?? '');
      if (header.alg !== 'RS256' || !key) return { ok: false };
      if (!verify('sha256', Buffer.from(`${h}.${p}`), key, Buffer.from(s, 'base64url'))) return { ok: false };
      if (typeof payload.exp === 'number' && payload.exp * 1000 < Date.now()) return { ok: false };
      return { ok: true, email: payload.iss! };
    } catch {
      return { ok: false };
    }
  }
}
