/**
 * The identity platform's side: OpenID metadata and the v2.0 token endpoint for the client
 * credentials grant, with client secrets checked against registered applications.
 */
import { randomBytes } from 'node:crypto';

export interface TokenResult {
  status: number;
  body: Record<string, unknown>;
}

export class IdentityService {
  /** client id → secret. */
  readonly clients = new Map<string, string>();
  private readonly tokens = new Map<string, number>();
  readonly tokenRequests: Array<{ clientId: string; scope: string; ok: boolean }> = [];

  constructor(readonly tenantId: string) {}

  metadata(base: string): Record<string, unknown> {
    const t = `${base}/${this.tenantId}`;
    return {
      issuer: `${t}/v2.0`,
      authorization_endpoint: `${t}/oauth2/v2.0/authorize`,
      token_endpoint: `${t}/oauth2/v2.0/token`,
      end_session_endpoint: `${t}/oauth2/v2.0/logout`,
      device_authorization_endpoint: `${t}/oauth2/v2.0/devicecode`,
      jwks_uri: `${t}/discovery/v2.0/keys`,
      token_endpoint_auth_methods_supported: ['client_secret_post', 'private_key_jwt', 'client_secret_basic'],
      response_types_supported: ['code', 'id_token', 'code id_token', 'id_token token'],
      scopes_supported: ['openid', 'profile', 'email', 'offline_access'],
      subject_types_supported: ['pairwise'],
      id_token_signing_alg_values_supported: ['RS256'],
      tenant_region_scope: 'NA',
      cloud_instance_name: 'localhost',
    };
  }

  token(form: URLSearchParams): TokenResult {
    const clientId = form.get('client_id') ?? '';
    const scope = form.get('scope') ?? '';
    const fail = (status: number, error: string, description: string): TokenResult => {
      this.tokenRequests.push({ clientId, scope, ok: false });
      return { status, body: { error, error_description: description, error_codes: [Number(/AADSTS(\d+)/.exec(description)?.[1] ?? 0)], timestamp: new Date().toISOString() } };
    };
    if (form.get('grant_type') !== 'client_credentials') return fail(400, 'unsupported_grant_type', 'AADSTS70003: The app requested an unsupported grant type.');
    const secret = this.clients.get(clientId);
    if (secret === undefined) return fail(400, 'unauthorized_client', `AADSTS700016: Application with identifier '${clientId}' was not found in the directory.`);
    // Never echo the secret that was sent.
    if (form.get('client_secret') !== secret) return fail(401, 'invalid_client', `AADSTS7000215: Invalid client secret provided. Ensure the secret being sent in the request is the client secret value, not the client secret ID, for a secret added to app '${clientId}'.`);
    const token = randomBytes(24).toString('base64url');
    this.tokens.set(token, Date.now() + 3600_000);
    this.tokenRequests.push({ clientId, scope, ok: true });
    return { status: 200, body: { token_type: 'Bearer', expires_in: 3599, ext_expires_in: 3599, access_token: token } };
  }

  isValid(token: string): boolean {
    return (this.tokens.get(token) ?? 0) > Date.now();
  }
}
