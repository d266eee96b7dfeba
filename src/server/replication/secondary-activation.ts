import { badRequest, ApiError } from '../http/reply.js';
import type { JsonObject } from '../util/json.js';
import { readActivationToken, type ActivationClaims } from './activation-token.js';
import { readCaRoots } from './ca-roots.js';
import type { PrimaryLink, SecondaryState } from './dr-state.js';
import { errorText, normaliseApiAddr, PeerClient } from './peer-client.js';
import { open, type KeyPair } from './sealed-box.js';
import { ACTIVATE_PATH, type ActivateAnswer, type ActivateRequest } from './stream-protocol.js';

/** What a secondary-to-be reads from an activation token and uses to reach its primary. */

const PEER_TIMEOUT_MS = 10_000;
const SAFETY_CHECK_TIMEOUT_MS = 2_000;

/** Where the primary is, and the CA roots to trust when it speaks https. */
export type PrimaryTarget = Pick<PrimaryLink, 'api_addr' | 'ca_pem'>;

/** The token's claims, opened with this cluster's key pair first when it was sealed to it. */
export async function openActivationToken(body: JsonObject, keyPair: KeyPair | null, nowMs: number): Promise<{ claims: ActivationClaims; token: string }> {
  const given = text(body['token']).trim();
  if (given === '') throw badRequest('"token" is required');
  let token = given;
  // A JWT has dots; a token sealed to this cluster's public key is plain base64.
  if (!given.includes('.')) {
    const opened = keyPair ? await open(keyPair, given) : undefined;
    if (opened === undefined) {
      throw badRequest(
        keyPair
          ? 'invalid activation token'
          : 'invalid activation token (a token encrypted to a public key needs the key pair of secondary/generate-public-key on this cluster)',
      );
    }
    token = opened;
  }
  const claims = readActivationToken(token);
  if (!claims) throw badRequest('invalid activation token');
  if (claims.exp * 1000 <= nowMs) throw badRequest('the activation token has expired');
  return { claims, token };
}

/** primary_api_addr overrides the token's address; ca_file and ca_path give the CA roots. */
export async function primaryTargetFor(body: JsonObject, claims: ActivationClaims): Promise<PrimaryTarget> {
  const override = text(body['primary_api_addr']).trim();
  const caPem = await readCaRoots(text(body['ca_file']).trim(), text(body['ca_path']).trim());
  return { api_addr: normaliseApiAddr(override || claims.addr), ca_pem: caPem };
}

/** Presents the token to the primary; a refusal or an unreachable primary is a 400 saying so. */
export async function activateWithPrimary(target: PrimaryTarget, token: string, ownApiAddr: string): Promise<ActivateAnswer> {
  const client = new PeerClient(target.api_addr, target.ca_pem);
  try {
    const answer = await client.post(ACTIVATE_PATH, { token, api_address: ownApiAddr } satisfies ActivateRequest, PEER_TIMEOUT_MS);
    if (answer.status !== 200) throw badRequest(`the DR primary at ${target.api_addr} refused the activation: ${errorText(answer)}`);
    const joined = (answer.body as { data?: ActivateAnswer } | null)?.data;
    if (!joined || typeof joined.credential !== 'string' || typeof joined.root_key !== 'string' || typeof joined.cluster_id !== 'string') {
      throw badRequest(`the DR primary at ${target.api_addr} gave an unreadable activation answer`);
    }
    return joined;
  } catch (err) {
    if (err instanceof ApiError) throw err;
    throw badRequest(`cannot reach the DR primary at ${target.api_addr}: ${(err as Error).message}`);
  } finally {
    client.close();
  }
}

/**
 * Promotion's safety checks: the secondary holds a complete copy of the set's data, and the
 * primary it follows is not reachable as a DR primary of the same set (one primary at a time).
 * Returns what fails, or undefined.
 */
export async function promoteSafetyProblem(s: SecondaryState): Promise<string | undefined> {
  if (!s.has_data) return 'this secondary has not received a complete copy of the replicated data yet';
  if (!s.primary) return undefined;
  const client = new PeerClient(s.primary.api_addr, s.primary.ca_pem);
  try {
    const answer = await client.get('sys/replication/dr/status', SAFETY_CHECK_TIMEOUT_MS);
    const data = (answer.body as { data?: { mode?: unknown; cluster_id?: unknown } } | null)?.data;
    if (data?.mode === 'primary' && data.cluster_id === s.cluster_id) {
      return `the primary at ${s.primary.api_addr} is reachable and still the DR primary of this set: demote it first`;
    }
    return undefined;
  } catch {
    return undefined; // unreachable from here: the check passes, as an unplanned failover needs
  } finally {
    client.close();
  }
}

function text(v: unknown): string {
  return typeof v === 'string' ? v : '';
}
