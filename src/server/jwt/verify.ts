import { createPublicKey, verify, constants, type KeyObject } from 'node:crypto';
import type { JsonObject } from '../util/json.js';

/**
 * JWT validation as the service's jwt method does it with its bound keys (hashicorp/cap
 * jwt/jwt.go validateAll, jwt/keyset.go): the signature by any of the keys, the algorithm
 * among those supported, then iss, aud, and the time claims (nbf, exp, iat) with the default
 * leeways. Every error text is the one cap gives, for `error validating token: <text>`.
 */

/** cap's default set when jwt_supported_algs is empty. */
const SUPPORTED_ALGS = ['RS256', 'RS384', 'RS512', 'ES256', 'ES384', 'ES512', 'PS256', 'PS384', 'PS512', 'EdDSA'] as const;

/** go-jose's jwt.DefaultLeeway (clock skew) and cap's DefaultLeewaySeconds (a missing exp or nbf). */
const CLOCK_SKEW_SECONDS = 60;
const DEFAULT_LEEWAY_SECONDS = 150;

export interface Expected {
  issuer: string;
  audiences: readonly string[];
  nowSeconds: number;
}

export class TokenInvalid extends Error {}

/** A PEM public key or certificate, as ParsePublicKeyPEM reads it (RSA or ECDSA only). */
export function parsePublicKeyPem(pem: string): KeyObject {
  let key: KeyObject;
  try {
    key = createPublicKey(pem);
  } catch {
    throw new TokenInvalid('data does not contain any valid RSA or ECDSA public keys');
  }
  if (key.asymmetricKeyType !== 'rsa' && key.asymmetricKeyType !== 'ec') throw new TokenInvalid('data does not contain any valid RSA or ECDSA public keys');
  return key;
}

/** The keys of a JWKS document (RFC 7517) that Node can use; the others are skipped. */
export function jwksKeys(document: unknown): KeyObject[] {
  const keys = (document as { keys?: unknown } | null)?.keys;
  if (!Array.isArray(keys)) return [];
  return keys.flatMap((jwk) => {
    try {
      return [createPublicKey({ key: jwk as import('node:crypto').JsonWebKey, format: 'jwk' })];
    } catch {
      return [];
    }
  });
}

/** The claims of a token whose signature one of `keys` verifies and whose claims are as expected. */
export function validateJwt(token: string, keys: readonly KeyObject[], expected: Expected): JsonObject {
  const parts = token.split('.');
  if (parts.length !== 3) throw new TokenInvalid('error verifying token signature: go-jose/go-jose: compact JWS format must have three parts');
  const [headerText, payloadText, signatureText] = parts as [string, string, string];
  const header = decodeJson(headerText);
  const claims = decodeJson(payloadText);
  if (header === undefined || claims === undefined) throw new TokenInvalid('error verifying token signature: go-jose/go-jose: invalid compact serialization');
  const alg = typeof header['alg'] === 'string' ? header['alg'] : '';
  const signed = Buffer.from(`${headerText}.${payloadText}`);
  const signature = Buffer.from(signatureText, 'base64url');
  if (!keys.some((key) => verifiesWith(alg, key, signed, signature))) {
    throw new TokenInvalid('error verifying token signature: no known key successfully validated the token signature');
  }
  if (!(SUPPORTED_ALGS as readonly string[]).includes(alg)) throw new TokenInvalid('invalid algorithm (alg) header parameter: token signed with unexpected algorithm');
  const mistyped = ['iss', 'sub', 'jti'].find((name) => claims[name] !== undefined && claims[name] !== null && typeof claims[name] !== 'string');
  // The registered claims are decoded into go-jose's Claims struct, whose decoder says so.
  if (mistyped) throw new TokenInvalid(`json: cannot unmarshal ${goJsonType(claims[mistyped])} into Go struct field Claims.${mistyped} of type string`);
  if (expected.issuer !== '' && claims['iss'] !== expected.issuer) throw new TokenInvalid('invalid issuer (iss) claim');
  if (expected.audiences.length > 0) {
    const aud = audienceOf(claims['aud']);
    if (!expected.audiences.some((a) => aud.includes(a))) {
      throw new TokenInvalid('invalid audience (aud) claim: audience claim does not match any expected audience');
    }
  }
  checkTimes(claims, expected.nowSeconds);
  return claims;
}

function checkTimes(claims: JsonObject, now: number): void {
  const iat = numeric(claims['iat']);
  let exp = numeric(claims['exp']);
  let nbf = numeric(claims['nbf']);
  if (iat === 0 && exp === 0 && nbf === 0) throw new TokenInvalid('no issued at (iat), not before (nbf), or expiration time (exp) claims in token');
  if (exp === 0) exp = Math.max(iat, nbf) + DEFAULT_LEEWAY_SECONDS;
  if (nbf === 0) nbf = iat !== 0 ? iat : exp - DEFAULT_LEEWAY_SECONDS;
  if (now + CLOCK_SKEW_SECONDS < nbf) throw new TokenInvalid('invalid not before (nbf) claim: token not yet valid');
  if (now - CLOCK_SKEW_SECONDS > exp) throw new TokenInvalid('invalid expiration time (exp) claim: token is expired');
  if (iat !== 0 && now + CLOCK_SKEW_SECONDS < iat) throw new TokenInvalid('invalid issued at (iat) claim: token issued in the future');
}

/** encoding/json's name of a JSON value's type, as its UnmarshalTypeError gives it. */
function goJsonType(value: unknown): string {
  if (typeof value === 'number') return 'number';
  if (typeof value === 'boolean') return 'bool';
  return Array.isArray(value) ? 'array' : 'object';
}

/** A NumericDate claim as go-jose reads it (whole seconds); absent is 0. */
function numeric(value: unknown): number {
  return typeof value === 'number' && Number.isFinite(value) ? Math.trunc(value) : 0;
}

/** `aud` is one string or a list (RFC 7519 section 4.1.3). */
export function audienceOf(value: unknown): string[] {
  if (typeof value === 'string') return value === '' ? [] : [value];
  return Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string') : [];
}

function decodeJson(part: string): JsonObject | undefined {
  try {
    const value: unknown = JSON.parse(Buffer.from(part, 'base64url').toString('utf8'));
    return value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as JsonObject) : undefined;
  } catch {
    return undefined;
  }
}

/** Does `key` verify the signature under `alg` (the key's type must fit the algorithm)? */
function verifiesWith(alg: string, key: KeyObject, data: Buffer, signature: Buffer): boolean {
  const hash = `sha${alg.slice(2)}`;
  try {
    switch (alg.slice(0, 2)) {
      case 'RS':
        return key.asymmetricKeyType === 'rsa' && verify(hash, data, key, signature);
      case 'PS':
        return (
          (key.asymmetricKeyType === 'rsa' || key.asymmetricKeyType === 'rsa-pss') &&
          verify(hash, data, { key, padding: constants.RSA_PKCS1_PSS_PADDING, saltLength: constants.RSA_PSS_SALTLEN_DIGEST }, signature)
        );
      case 'ES':
        return key.asymmetricKeyType === 'ec' && verify(hash, data, { key, dsaEncoding: 'ieee-p1363' }, signature);
      case 'Ed':
        return alg === 'EdDSA' && key.asymmetricKeyType === 'ed25519' && verify(null, data, key, signature);
      default:
        return false;
    }
  } catch {
    return false;
  }
}
