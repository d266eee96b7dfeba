import { createHash, createHmac, randomBytes, timingSafeEqual } from 'node:crypto';

/**
 * Secondary activation tokens: JWTs (HS256, signed with the primary's own key) like the
 * service's wrapping tokens, carrying where the primary is and a one-time secret that the
 * primary checks, and then forgets, when the secondary activates with it.
 */
export interface ActivationClaims {
  /** The primary's API address (origin, no /v1). */
  addr: string;
  /** The cluster address the primary gives its secondaries. */
  cluster_addr: string;
  /** The replication set's cluster id. */
  cid: string;
  /** The secondary id the token was issued for. */
  id: string;
  /** Expiry, unix seconds. */
  exp: number;
  iat: number;
  /** The one-time secret. */
  jti: string;
}

export function newActivationSecret(): string {
  return randomBytes(32).toString('base64url');
}

/** SHA-256 (hex) of a secret: what is kept of one-time secrets, credentials and operation tokens. */
export function secretDigest(secret: string): string {
  return createHash('sha256').update(secret).digest('hex');
}

export function signActivationToken(claims: ActivationClaims, signingKeyHex: string): string {
  const head = b64url(JSON.stringify({ alg: 'HS256', typ: 'JWT' }));
  const body = b64url(JSON.stringify(claims));
  return `${head}.${body}.${mac(`${head}.${body}`, signingKeyHex)}`;
}

/** The claims as the secondary reads them (without the key): undefined when it is not such a token. */
export function readActivationToken(token: string): ActivationClaims | undefined {
  const parts = token.trim().split('.');
  if (parts.length !== 3) return undefined;
  try {
    const claims = JSON.parse(Buffer.from(parts[1]!, 'base64url').toString('utf8')) as Partial<ActivationClaims>;
    const texts = [claims.addr, claims.cluster_addr, claims.cid, claims.id, claims.jti];
    if (texts.some((t) => typeof t !== 'string') || typeof claims.exp !== 'number' || typeof claims.iat !== 'number') return undefined;
    return claims as ActivationClaims;
  } catch {
    return undefined;
  }
}

/** The claims when the primary's key signed the token; undefined otherwise. */
export function verifyActivationToken(token: string, signingKeyHex: string): ActivationClaims | undefined {
  const parts = token.trim().split('.');
  if (parts.length !== 3) return undefined;
  const expected = Buffer.from(mac(`${parts[0]}.${parts[1]}`, signingKeyHex));
  const given = Buffer.from(parts[2]!);
  if (expected.length !== given.length || !timingSafeEqual(expected, given)) return undefined;
  return readActivationToken(token);
}

function mac(text: string, keyHex: string): string {
  return createHmac('sha256', Buffer.from(keyHex, 'hex')).update(text).digest('base64url');
}

function b64url(text: string): string {
  return Buffer.from(text, 'utf8').toString('base64url');
}
