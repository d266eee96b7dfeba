import { newUuid } from '../util/random.js';
import type { JsonObject } from '../util/json.js';
import { badRequest } from '../http/reply.js';
import type { RootKeyRef } from './dr-state.js';
import { encodeWithOtp, newOtp, OTP_LENGTH } from './otp.js';
import { encryptToPgp, pgpRecipient, type PgpRecipient } from './pgp.js';
import { parseShare, sharesOpen } from './root-key.js';

/** An attempt in progress (kept in memory, as the service keeps it). */
interface Attempt {
  nonce: string;
  /** The one-time password the token is encoded with, unless a PGP key is used. */
  otp: string | undefined;
  pgp: PgpRecipient | undefined;
  shares: Buffer[];
}

export interface GenerationDeps {
  /** The root key the shares must rebuild. */
  keys(): RootKeyRef;
  /** Issues and records a new DR operation token. */
  issue(): Promise<string>;
}

/**
 * DR operation-token generation (`.../generate-operation-token/attempt` and `/update`): one
 * attempt at a time; root key shares with the attempt's nonce until the threshold; then the
 * token, encoded with the OTP (`base64 no padding of token XOR otp`) or encrypted to the PGP
 * key. Answers are the service's bare objects (no envelope).
 */
export class OperationTokenGeneration {
  private attempt: Attempt | undefined;

  constructor(private readonly deps: GenerationDeps) {}

  status(): JsonObject {
    return this.view(this.attempt, false, '');
  }

  async start(body: JsonObject): Promise<JsonObject> {
    if (this.attempt) throw badRequest('an operation token generation attempt is already in progress; cancel it first');
    const givenOtp = text(body['otp']);
    const pgpKey = text(body['pgp_key']);
    if (givenOtp !== '' && pgpKey !== '') throw badRequest('only one of otp and pgp_key may be given');
    if (givenOtp !== '' && givenOtp.length !== OTP_LENGTH) throw badRequest(`the OTP must be ${OTP_LENGTH} characters long`);
    let pgp: PgpRecipient | undefined;
    if (pgpKey !== '') {
      pgp = await pgpRecipient(pgpKey);
      if (!pgp) throw badRequest('pgp_key is not a usable base64-encoded PGP public key');
    }
    const generated = givenOtp === '' && !pgp ? newOtp() : undefined;
    if (this.attempt) throw badRequest('an operation token generation attempt is already in progress; cancel it first');
    this.attempt = { nonce: newUuid(), otp: generated ?? (givenOtp || undefined), pgp, shares: [] };
    const answer = this.view(this.attempt, false, '');
    return generated ? { ...answer, otp: generated } : answer;
  }

  cancel(): void {
    this.attempt = undefined;
  }

  async update(body: JsonObject): Promise<JsonObject> {
    const attempt = this.attempt;
    if (!attempt) throw badRequest('no operation token generation attempt is in progress');
    const key = text(body['key']);
    const nonce = text(body['nonce']);
    if (key === '') throw badRequest('"key" is required');
    if (nonce === '') throw badRequest('"nonce" is required');
    if (nonce !== attempt.nonce) throw badRequest('incorrect nonce supplied for the operation token generation attempt');
    const share = parseShare(key);
    if (!share) throw badRequest('"key" must be a valid hex or base64 string');
    if (attempt.shares.some((s) => s.equals(share))) throw badRequest('given key has already been provided during this generation operation');
    attempt.shares.push(share);
    const { root_key, key_threshold } = this.deps.keys();
    if (attempt.shares.length < key_threshold) return this.view(attempt, false, '');

    const given = attempt.shares;
    attempt.shares = []; // the shares are used once, whatever the outcome
    if (!(await sharesOpen(given, root_key, key_threshold))) {
      throw badRequest('operation token generation aborted: the key shares do not rebuild the root key of this cluster');
    }
    const token = await this.deps.issue();
    const encoded = attempt.pgp ? await encryptToPgp(attempt.pgp, token) : encodeWithOtp(token, attempt.otp!);
    if (this.attempt === attempt) this.attempt = undefined;
    return { ...this.view(attempt, true, encoded), progress: key_threshold };
  }

  private view(attempt: Attempt | undefined, complete: boolean, encoded: string): JsonObject {
    return {
      started: attempt !== undefined,
      nonce: attempt?.nonce ?? '',
      progress: attempt?.shares.length ?? 0,
      required: this.deps.keys().key_threshold,
      complete,
      encoded_token: encoded,
      encoded_root_token: encoded,
      pgp_fingerprint: attempt?.pgp?.fingerprint ?? '',
      // Always present (vault/generate_root.go GenerateRootStatusResponse has no omitempty):
      // "" except in the answer that starts an attempt with a generated OTP.
      otp: '',
      otp_length: OTP_LENGTH,
    };
  }
}

function text(v: unknown): string {
  return typeof v === 'string' ? v : '';
}
