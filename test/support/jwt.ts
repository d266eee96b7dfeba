/** Signed JWTs for login tests: a key pair per issuer, tokens signed as a CI provider signs its ID tokens. */
import { generateKeyPairSync, sign, type KeyObject } from 'node:crypto';

export interface JwtIssuer {
  /** The public key, PEM (SubjectPublicKeyInfo), for `jwt_validation_pubkeys`. */
  publicKeyPem: string;
  /** The public key as a JWKS document, for `jwks_url`. */
  jwks: { keys: object[] };
  /** A compact JWS (RS256) of these claims. */
  sign(claims: Record<string, unknown>): string;
}

export function jwtIssuer(kid = 'test-key'): JwtIssuer {
  const { publicKey, privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  return {
    publicKeyPem: publicKey.export({ type: 'spki', format: 'pem' }).toString(),
    jwks: { keys: [{ ...publicKey.export({ format: 'jwk' }), kid, alg: 'RS256', use: 'sig' }] },
    sign: (claims) => signJwt(claims, privateKey, kid),
  };
}

function signJwt(claims: Record<string, unknown>, key: KeyObject, kid: string): string {
  const part = (value: unknown): string => Buffer.from(JSON.stringify(value)).toString('base64url');
  const signed = `${part({ alg: 'RS256', typ: 'JWT', kid })}.${part(claims)}`;
  return `${signed}.${sign('sha256', Buffer.from(signed), key).toString('base64url')}`;
}

/** Claims like a GitHub Actions ID token's, valid from now for five minutes. */
export function ciClaims(overrides: Record<string, unknown> = {}, nowSeconds = Math.floor(Date.now() / 1000)): Record<string, unknown> {
  return {
    iss: 'https://token.actions.example.com',
    sub: 'repo:acme/infra:ref:refs/heads/main',
    aud: 'lockstep',
    repository: 'acme/infra',
    ref: 'refs/heads/main',
    iat: nowSeconds,
    nbf: nowSeconds,
    exp: nowSeconds + 300,
    ...overrides,
  };
}
