import { loginMountPath, type ClusterAuth } from '../core/cluster.js';
import { isJsonObject, type JsonObject } from '../core/json.js';
import { Secret } from '../core/secret.js';

type LoginAuth = Exclude<ClusterAuth, { method: 'token' }>;

/** The request of a login: `<namespace>/auth/<mount>/login` and its body (secrets as Secret, revealed only when sent). */
export function loginRequest(auth: LoginAuth): { segments: string[]; body: Record<string, unknown> } {
  const segments = [...loginMountPath(auth).split('/'), 'login'];
  switch (auth.method) {
    case 'jwt':
      // Whitespace is never part of a JWT; a file written by `echo` ends in a line break.
      return { segments, body: { role: auth.role, jwt: new Secret(auth.jwt.reveal().trim(), auth.jwt.origin) } };
    case 'approle':
      return { segments, body: { role_id: auth.roleId, secret_id: auth.secretId } };
  }
}

/** The path of a token endpoint (`auth/token/revoke-self`) in the namespace the login was made in. */
export function tokenEndpoint(auth: ClusterAuth, endpoint: 'revoke-self' | 'lookup-self'): { segments: string[] } {
  const namespace = auth.method === 'token' ? undefined : auth.namespace;
  return { segments: [...(namespace ? namespace.split('/') : []), 'auth', 'token', endpoint] };
}

/** The token of a login's answer (`auth.client_token`), or why there is none. */
export function loginToken(auth: JsonObject | null): string | { problem: string } {
  const token = auth?.['client_token'];
  if (typeof token !== 'string' || token === '') return { problem: '"auth.client_token" is not a token' };
  return token;
}

/**
 * What `auth/token/lookup-self` says of a token, in words for a 401/403 message: its policies
 * and when it expires. Fields of the wrong form are left out (the answer is the server's).
 */
export function tokenFacts(data: JsonObject | null): string {
  if (!isJsonObject(data)) return 'the server did not describe it';
  const policies = Array.isArray(data['policies']) ? data['policies'].filter((p): p is string => typeof p === 'string') : [];
  const expireTime = data['expire_time'];
  const ttl = data['ttl'];
  const expiry =
    typeof expireTime === 'string' && expireTime !== ''
      ? `expires ${expireTime}`
      : expireTime === null && (ttl === 0 || ttl === undefined)
        ? 'never expires'
        : 'expiry unknown';
  return `its policies: ${policies.length > 0 ? policies.join(', ') : '(none)'}; ${expiry}`;
}
