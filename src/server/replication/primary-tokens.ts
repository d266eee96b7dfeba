import { randomBytes } from 'node:crypto';
import { badRequest, ok, type Reply } from '../http/reply.js';
import { toDurationSeconds } from '../util/fields.js';
import type { JsonObject } from '../util/json.js';
import { newUuid } from '../util/random.js';
import { newActivationSecret, secretDigest, signActivationToken, verifyActivationToken, type ActivationClaims } from './activation-token.js';
import type { PrimaryState } from './dr-state.js';
import { parsePublicKey, seal } from './sealed-box.js';
import { effectiveClusterAddr } from './status-view.js';
import type { ActivateAnswer } from './stream-protocol.js';
import { withPending, withRegistered } from './transitions.js';
import { goTime } from '../util/go-time.js';

/** A primary's side of activation: issuing tokens and accepting them. Pure but for randomness. */

const DEFAULT_TOKEN_TTL_SECONDS = 30 * 60;

/**
 * `primary/secondary-token`: the next state (the token pending for its id) and the answer, the
 * token in `wrap_info.token`, or in `data.token` encrypted to `secondary_public_key`.
 */
export async function issueActivationToken(p: PrimaryState, body: JsonObject, apiAddr: string, nowMs: number): Promise<{ next: PrimaryState; reply: Reply }> {
  const id = text(body['id']).trim();
  if (id === '') throw badRequest('"id" is required');
  const ttl = body['ttl'] === undefined || body['ttl'] === '' ? 0 : toDurationSeconds('ttl', body['ttl']);
  const seconds = ttl > 0 ? ttl : DEFAULT_TOKEN_TTL_SECONDS;
  const keyText = text(body['secondary_public_key']).trim();
  const publicKey = keyText === '' ? undefined : await parsePublicKey(keyText);
  if (keyText !== '' && !publicKey) throw badRequest('secondary_public_key is not a public key made by secondary/generate-public-key');
  const secret = newActivationSecret();
  const claims: ActivationClaims = {
    addr: apiAddr,
    cluster_addr: effectiveClusterAddr(p, apiAddr),
    cid: p.cluster_id,
    id,
    iat: Math.floor(nowMs / 1000),
    exp: Math.floor(nowMs / 1000) + seconds,
    jti: secret,
  };
  const token = signActivationToken(claims, p.signing_key);
  const next = withPending(p, { id, secret_digest: secretDigest(secret), expires_at_ms: nowMs + seconds * 1000 });
  return { next, reply: publicKey ? ok({ token: await seal(publicKey, token) }) : wrapped(token, seconds, nowMs) };
}

/**
 * A secondary presents its token: valid, unexpired, the pending one for its id. It is
 * registered (the token is used up) and gets its credential and the set's root key.
 */
export function acceptActivation(p: PrimaryState, body: JsonObject, apiAddr: string, nowMs: number): { next: PrimaryState; answer: ActivateAnswer } {
  const claims = verifyActivationToken(text(body['token']), p.signing_key);
  if (!claims || claims.cid !== p.cluster_id) throw badRequest('invalid activation token');
  if (claims.exp * 1000 <= nowMs) throw badRequest('the activation token has expired');
  const pending = p.pending.find((x) => x.id === claims.id);
  if (!pending || pending.secret_digest !== secretDigest(claims.jti)) {
    throw badRequest('the activation token was revoked, replaced by a newer one, or already used');
  }
  const credential = randomBytes(32).toString('base64url');
  const next = withRegistered(p, {
    id: claims.id,
    credential_digest: secretDigest(credential),
    api_address: text(body['api_address']),
    activated_at_ms: nowMs,
  });
  return {
    next,
    answer: {
      cluster_id: p.cluster_id,
      secondary_id: claims.id,
      primary_cluster_addr: effectiveClusterAddr(p, apiAddr),
      credential,
      root_key: p.keys.root_key,
      key_threshold: p.keys.key_threshold,
    },
  };
}

/** The answer of secondary-token without a public key: the token in wrap_info, as response wrapping gives it. */
function wrapped(token: string, ttlSeconds: number, nowMs: number): Reply {
  return {
    kind: 'raw',
    status: 200,
    body: {
      request_id: newUuid(),
      lease_id: '',
      renewable: false,
      lease_duration: 0,
      data: null,
      wrap_info: {
        token,
        accessor: '',
        ttl: ttlSeconds,
        creation_time: goTime(nowMs),
        creation_path: 'sys/replication/dr/primary/secondary-token',
        wrapped_accessor: '',
      },
      warnings: null,
      auth: null,
    },
  };
}

function text(v: unknown): string {
  return typeof v === 'string' ? v : '';
}
